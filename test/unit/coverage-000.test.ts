/** Coverage of seed note 000 ("Rede interna do cluster"): see ./coverage.ts. */
import { describeCoverage } from './coverage.ts';

describeCoverage({
  note: '000_a56fd7953ca4c6b4.txt',
  coverageFile: 'coverage/000.yaml',
  minFacts: 25,
});
