/**
 * Issue 16's capture budgets, measured (not asserted): 10,000 captured packets printed as tcpdump
 * prints them (`tcpdump -nn -r` of a 10,000-packet pcap in a netshoot pod, through the shell and the
 * container's files), and what a curl to a ClusterIP costs when no capture runs.
 * Run: npm run bench (or node bench/capture.mts under the project's Node 24).
 */
import { createCluster } from '../src/engine/index.ts';
import {
  readPcap,
  writePcap,
  fromBinaryString,
  toBinaryString,
} from '../src/engine/dataplane/capture/pcap.ts';

const PACKETS = 10_000;
const CURLS = 200;

const c = createCluster(undefined, { seed: 3 });
const run = (line: string) => c.execSync(line, { interactive: false });
run(
  'kubectl create deployment web --image=nginx --port=80 --replicas=2; kubectl expose deployment web --port=80',
);
run(
  'kubectl run ns --image=nicolaka/netshoot -- sleep infinity; kubectl wait --for=condition=Ready pod/ns --timeout=60s; kubectl wait --for=condition=Ready pod -l app=web --timeout=60s',
);

// One capture of real traffic (DNS and an HTTP exchange), repeated to 10,000 records.
run("kubectl exec ns -- sh -c 'tcpdump -i eth0 -nn -w /tmp/one.pcap & curl -s -o /dev/null web; wait'");
const one = readPcap(fromBinaryString(run('kubectl exec ns -- cat /tmp/one.pcap').stdout));
if ('error' in one || one.records.length === 0) throw new Error('no capture to repeat');
const records = Array.from({ length: PACKETS }, (_, i) => {
  const r = one.records[i % one.records.length]!;
  return { ...r, seconds: r.seconds + Math.floor(i / 1000), micros: (i % 1000) * 1000 };
});
const big = toBinaryString(writePcap({ ...one, records }));
c.files.write('big.pcap', big);
run('kubectl cp big.pcap ns:/tmp/big.pcap');

const t0 = performance.now();
const printed = run("kubectl exec ns -- sh -c 'tcpdump -nn -r /tmp/big.pcap > /dev/null'");
const printMs = performance.now() - t0;
if (printed.exitCode !== 0) throw new Error(printed.stderr);
// Through a pipe (a terminal keeps its last MiB only): every line made, and what `| wc -l` adds.
const t2 = performance.now();
const counted = run("kubectl exec ns -- sh -c 'tcpdump -nn -r /tmp/big.pcap | wc -l'");
const pipedMs = performance.now() - t2;
if (Number(counted.stdout.trim()) !== PACKETS)
  throw new Error(`printed ${counted.stdout.trim()} lines, not ${PACKETS}`);

const t1 = performance.now();
for (let i = 0; i < CURLS; i++) run('kubectl exec ns -- curl -s -o /dev/null web');
const curlMs = (performance.now() - t1) / CURLS;

console.log(
  JSON.stringify({
    print10kMs: printMs,
    print10kPipedToWcMs: pipedMs,
    curlNoCaptureMs: curlMs,
    frames: one.records.length,
  }),
);
