/** A grading worker thread: grades its slice of the cohort and posts the rows back (see grade.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { gradeFiles, type ReportFile } from './grade-files.ts';

const { labDir, files } = workerData as { labDir: string; files: ReportFile[] };
parentPort?.postMessage(gradeFiles(labDir, files));
