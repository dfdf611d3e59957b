/** Coverage of seed note 002 ("Diagrama de rede do Kubernetes"): see ./coverage.ts. */
import { describeCoverage } from './coverage.ts';

describeCoverage({
  note: '002_123a4afd19bdf702.txt',
  coverageFile: 'coverage/002.yaml',
  minFacts: 100,
});
