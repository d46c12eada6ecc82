// A raw HTTP request to a server on loopback, so that headers (Host, Origin) can be
// anything and nothing is added: what tests of the daemon's HTTP surface need.
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
  /** From sending the request to the end of the answer. */
  ms: number;
}

export interface RawRequest {
  port: number;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export function rawRequest(options: RawRequest): Promise<RawResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: options.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers ?? {},
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            headers: res.headers,
            ms: performance.now() - started,
          }),
        );
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}
