/** Coverage of seed note 001 ("Rede do cluster por dentro"): see ./coverage.ts. */
import { describeCoverage } from './coverage.ts';

describeCoverage({
  note: '001_b506c9cb40f973ef.txt',
  coverageFile: 'coverage/001.yaml',
  minFacts: 100,
});
