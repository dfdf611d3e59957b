/** A grading worker thread: grades its slice of the cohort and posts the rows back (see grade.ts). */
import { enableCompileCache } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import type { ReportFile } from './grade-files.ts';

// Every worker strips the types of and compiles the whole grader and engine again (~0.65 s of CPU);
// Node's on-disk compile cache (in the OS temp folder, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE
// turns it off) cuts that to ~0.2 s for every later worker and run. Enabled before the import it serves.
enableCompileCache();
const { gradeFiles } = await import('./grade-files.ts');
const { labDir, files } = workerData as { labDir: string; files: ReportFile[] };
parentPort?.postMessage(gradeFiles(labDir, files));
