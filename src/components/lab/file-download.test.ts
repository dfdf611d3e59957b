import { describe, expect, it } from 'vitest';
import { fileDownload, isCapture } from './file-download';
import { toBinaryString, writePcap } from '../../engine/dataplane/capture/pcap';

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

describe('fileDownload', () => {
  it('saves a capture as its bytes, every value 0–255 intact', async () => {
    const data = Uint8Array.from({ length: 256 }, (_, i) => i);
    const pcap = writePcap({
      linktype: 1,
      snaplen: 262144,
      records: [{ seconds: 1, micros: 2, data, originalLength: 256 }],
    });
    const file = fileDownload('captures/web.pcap', toBinaryString(pcap));
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
