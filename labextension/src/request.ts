/** The panel's only way to the engine: the REST routes of the server extension. */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

export interface ApiResponse<T> {
  status: number;
  body: T;
  text: string;
}

/** GET codetrace/api/<route>?<params>; not-found answers (404) come back as data, not errors. */
export async function requestAPI<T>(
  route: string,
  params: Record<string, string | number | boolean | undefined> = {}
): Promise<ApiResponse<T>> {
  const settings = ServerConnection.makeSettings();
  const query = Object.entries(params)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  const url = URLExt.join(settings.baseUrl, 'codetrace', 'api', route) + (query ? `?${query}` : '');
  const response = await ServerConnection.makeRequest(url, {}, settings);
  const text = await response.text();
  let body: any = text;
  if ((response.headers.get('Content-Type') || '').includes('json')) {
    body = text ? JSON.parse(text) : {};
  }
  if (response.status >= 500 && response.status !== 503) {
    throw new ServerConnection.ResponseError(response, body?.message ?? text);
  }
  return { status: response.status, body, text };
}
