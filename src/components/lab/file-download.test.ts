import { describe, expect, it } from 'vitest';
import { fileDownload, isCapture } from './file-download';

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

describe('fileDownload', () => {
  it('saves a capture as its bytes, every value 0–255 intact', async () => {
    // A libpcap savefile (little-endian, v2.4, Ethernet) with one 256-byte record of every byte value.
    const header = [0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 1, 0, 0, 0];
    const record = [1, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0];
    const pcap = Uint8Array.from([...header, ...record, ...Array.from({ length: 256 }, (_, i) => i)]);
    // As the engine keeps it in a session file: one character per byte.
    const file = fileDownload('captures/web.pcap', String.fromCharCode(...pcap));
    expect(file.name).toBe('web.pcap');
    expect(file.blob.type).toBe('application/vnd.tcpdump.pcap');
    expect(await bytesOf(file.blob)).toEqual(pcap);
  });

  it('saves a manifest as UTF-8 text, non-ASCII included', async () => {
    const yaml = 'kind: ConfigMap\ndata:\n  greeting: "olá, conexão"\n';
    const file = fileDownload('web.yaml', yaml);
    expect(file.blob.type).toBe('application/yaml;charset=utf-8');
    expect(new TextDecoder().decode(await bytesOf(file.blob))).toBe(yaml);
    expect(isCapture(yaml)).toBe(false);
  });

  it('does not take a short text that starts like a magic for a capture', () => {
    expect(isCapture('\xd4\xc3\xb2\xa1')).toBe(false);
  });
});
