// The daemon's HTTP API for specs and the seeder: typed with the shared contract, the
// token in the Authorization header, errors thrown with the contract's code.
import type { MethodArgs, MethodName, MethodResult } from '../../src/shared/api';

export type Api = <M extends MethodName>(
  method: M,
  args: MethodArgs<M>,
) => Promise<MethodResult<M>>;

export function createApi(baseUrl: string, token: string): Api {
  return async (method, args) => {
    const response = await fetch(`${baseUrl}/api/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(args ?? {}),
    });
    const body = (await response.json()) as {
      result?: unknown;
      error?: { code: string; message: string };
    };
    if (!response.ok || body.error) {
      throw new Error(
        `${method}: ${body.error?.code ?? response.status} ${body.error?.message ?? ''}`,
      );
    }
    return body.result as never;
  };
}
