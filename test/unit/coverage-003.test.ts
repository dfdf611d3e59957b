/** Coverage of seed note 003 ("Redes no Kubernetes: CNI, Services e Ingress sem mistério"): see ./coverage.ts. */
import { describeCoverage } from './coverage.ts';

describeCoverage({
  note: '003_e8853a9a564fc35f.txt',
  coverageFile: 'coverage/003.yaml',
  minFacts: 70,
});
