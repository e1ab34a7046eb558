/** The panel's only way to the engine: the REST routes of the server extension. */
import { URLExt } from '@jupyterlab/coreutils';
import { ServerConnection } from '@jupyterlab/services';

import type { Indexing } from './types';
import { retryDelay } from './view';

/**
 * The arguments of each route, named and typed as the server's OpenAPI document lists them (the
 * Project signatures, plus a route's own `text` and `format`): tests/test_parameter_lists.py
 * checks every field against it. `symbol` is optional here where the panel leaves it out: with a
 * `column` the server reads the name written there.
 */
export interface RouteParams {
  definition: {
    symbol?: string; file?: string; line?: number; column?: number; mode?: string; cell?: number; text?: string;
  };
  references: {
    symbol?: string; file: string; line: number; column?: number; include_declaration?: boolean; cell?: number;
    text?: string;
  };
  trace: { symbol: string; file?: string; references?: boolean; calls?: boolean; types?: boolean; format?: Format<'text'> };
  dependencies: { file: string; symbol: string; include_name_matches?: boolean; format?: Format<'text' | 'dot' | 'svg'> };
  dependents: { file: string; symbol: string; include_name_matches?: boolean; format?: Format<'text' | 'dot' | 'svg'> };
  paths: {
    from_file: string; from_symbol: string; to_file: string; to_symbol: string; include_name_matches?: boolean;
    format?: Format<'text' | 'dot' | 'svg'>;
  };
  symbols: { query: string; limit?: number };
  graph: { include_name_matches?: boolean; format?: Format<'dot'> };
  'library-source': { file: string; format?: Format<'text'> };
  status: Record<string, never>;
  reindex: Record<string, never>;
}

export type Route = keyof RouteParams;

/** A route's `format` values besides the default JSON. */
type Format<Other extends string> = 'json' | Other;

export interface ApiResponse<T> {
  status: number;
  body: T;
  text: string;
  /** Seconds the server asks to wait before retrying (503 while indexing). */
  retryAfter: number | null;
}

/**
 * GET codetrace/api/<route>?<params> (POST with a JSON body when `init.method` is POST); not-found answers (404) come back as data, not errors.
 * `init.signal` cancels a request nobody waits for any more (the editor's hover card).
 */
export async function requestAPI<T, R extends Route = Route>(
  route: R,
  params?: RouteParams[R],
  init: RequestInit = {}
): Promise<ApiResponse<T>> {
  const settings = ServerConnection.makeSettings();
  const query = Object.entries(params ?? {})
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&');
  const base = URLExt.join(settings.baseUrl, 'codetrace', 'api', route);
  let response: Response;
  if (init.method === 'POST') {
    // The same arguments as a JSON body (what a long value such as an editor's text needs).
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(params ?? {})) {
      if (value !== undefined) {
        fields[key] = value;
      }
    }
    const body = JSON.stringify(fields);
    response = await ServerConnection.makeRequest(base, { ...init, body }, settings);
  } else {
    response = await ServerConnection.makeRequest(base + (query ? `?${query}` : ''), init, settings);
  }
  const text = await response.text();
  let body: unknown = text;
  if ((response.headers.get('Content-Type') || '').includes('json')) {
    body = text ? JSON.parse(text) : {};
  }
  if (response.status >= 500 && response.status !== 503) {
    const message = body && typeof body === 'object' && 'message' in body && typeof body.message === 'string' ? body.message : text;
    throw new ServerConnection.ResponseError(response, message);
  }
  const retryAfter = Number(response.headers.get('Retry-After')) || null;
  return { status: response.status, body: body as T, text, retryAfter };
}

export interface WaitOptions {
  /** Told before each wait, with the 503 answer (its `progress` says how far indexing is). */
  onWait?: (body: Indexing, delay: number) => void;
  /** Stop retrying (and return the 503) once the answer is no longer wanted. */
  isCurrent?: () => boolean;
}

const MAX_ATTEMPTS = 60; // about ten minutes at the longest delay

/** requestAPI, asked again with backoff while the project is still being indexed (503). */
export async function requestWhenIndexed<T, R extends Route = Route>(
  route: R,
  params?: RouteParams[R],
  options: WaitOptions = {}
): Promise<ApiResponse<T>> {
  for (let attempt = 0; ; attempt++) {
    const response = await requestAPI<T, R>(route, params);
    if (response.status !== 503 || attempt >= MAX_ATTEMPTS || (options.isCurrent && !options.isCurrent())) {
      return response;
    }
    const delay = retryDelay(attempt, response.retryAfter);
    options.onWait?.(response.body as unknown as Indexing, delay);
    await new Promise(resolve => window.setTimeout(resolve, delay));
    if (options.isCurrent && !options.isCurrent()) {
      return response;
    }
  }
}
