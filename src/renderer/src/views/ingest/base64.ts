// Bytes to base64 for ingest.upload, in slices (a multiple of 3 bytes, so the pieces join
// without padding in the middle) to keep the intermediate strings small for a 32 MiB file.

const SLICE = 3 * 16 * 1024;

export function bytesToBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  for (let start = 0; start < bytes.length; start += SLICE) {
    const slice = bytes.subarray(start, Math.min(bytes.length, start + SLICE));
    let binary = '';
    // fromCharCode.apply with a few thousand arguments at a time stays under stack limits.
    for (let i = 0; i < slice.length; i += 4096)
      binary += String.fromCharCode.apply(null, slice.subarray(i, i + 4096) as unknown as number[]);
    parts.push(btoa(binary));
  }
  return parts.join('');
}

/** A file's bytes, read and encoded for ingest.upload. */
export async function fileToBase64(file: Blob): Promise<string> {
  return bytesToBase64(new Uint8Array(await file.arrayBuffer()));
}
