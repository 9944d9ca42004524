// The HTTP client: every request goes through `api`, which turns a server error
// body ({"error": "..."}) into an ApiError whose message is that plain text.

export class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError('The Tabula server cannot be reached. Is `tabula serve` still running?', 0);
  }
  if (response.status === 204) return null;
  const text = await response.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const message = data && typeof data.error === 'string' ? data.error : text.trim() || response.statusText;
    throw new ApiError(message || `The server answered ${response.status}.`, response.status);
  }
  return data;
}

export const api = {
  get: (path) => request('GET', path),
  post: (path, body = {}) => request('POST', path, body),
  put: (path, body = {}) => request('PUT', path, body),
  del: (path) => request('DELETE', path),
};

const enc = encodeURIComponent;

export const games = () => api.get('/api/games');
export const gameInfo = (name, variant) =>
  api.get(`/api/games/${enc(name)}` + (variant ? `?variant=${enc(variant)}` : ''));
export const createSession = (body) => api.post('/api/sessions', body);
export const getSession = (id) => api.get(`/api/sessions/${enc(id)}`);
export const playMove = (id, move, setup = false) =>
  api.post(`/api/sessions/${enc(id)}/moves`, setup ? { move, setup: true } : { move });
export const action = (id, what) => api.post(`/api/sessions/${enc(id)}/${what}`, {});
/// The hint of the position now, or (`ply`) of the position after the first `ply` plies (review).
export const hint = (id, ply = null) => api.get(`/api/sessions/${enc(id)}/hint${ply === null || ply === undefined ? '' : `?ply=${ply}`}`);
export const positionView = (game, variant, position) =>
  api.get(`/api/games/${enc(game)}/view?variant=${enc(variant || '')}&position=${enc(position)}`);
export const line = (id, move, ply = null) => api.get(`/api/sessions/${enc(id)}/line?move=${enc(move)}${ply === null || ply === undefined ? '' : `&ply=${ply}`}`);
export const history = (id) => api.get(`/api/sessions/${enc(id)}/history`);
export const review = (id, ply) => api.get(`/api/sessions/${enc(id)}/review?ply=${ply}`);
export const playFrom = (id, ply) => api.post(`/api/sessions/${enc(id)}/from?ply=${ply}`, {});
export const setPlayer = (id, seat, player) => api.put(`/api/sessions/${enc(id)}/players`, { seat, player });
export const learned = (id, seat) => api.get(`/api/sessions/${enc(id)}/learned?seat=${seat}`);
export const save = (id, name) => api.post(`/api/sessions/${enc(id)}/save`, name ? { name } : {});
export const savedList = (game) => api.get(`/api/saved?game=${enc(game)}`);
export const resume = (savedId) => api.post(`/api/saved/${enc(savedId)}/resume`, {});
export const deleteSaved = (savedId) => api.del(`/api/saved/${enc(savedId)}`);
export const getSettings = (game) => api.get(`/api/settings/${enc(game)}`);
export const putSettings = (game, settings) => api.put(`/api/settings/${enc(game)}`, settings);
export const tallies = (game) => api.get(`/api/tallies?game=${enc(game)}`);
export const best = (game) => api.get(`/api/best/${enc(game)}`);
export const rules = (game) => api.get(`/api/games/${enc(game)}/rules`);
/// A tool a game declares (its presentation's `tools`): `{tool, lines, data}`.
export const runTool = (game, tool, input) => api.post(`/api/games/${enc(game)}/tools/${enc(tool)}`, { input });

/// Starts a background job and follows its event stream. `onProgress(data)` gets
/// every progress event's data; the promise resolves with the job's report.
/// `signal` (an AbortSignal) stops following: the server cancels a job nobody
/// follows, and the promise rejects with an ApiError whose `stopped` is true.
export async function runJob(body, onProgress = () => {}, { signal } = {}) {
  const stoppedError = () => Object.assign(new ApiError('Stopped.', 0), { stopped: true });
  if (signal?.aborted) throw stoppedError();
  const started = await api.post('/api/jobs', body);
  const id = started.job_id ?? started.id;
  return new Promise((resolve, reject) => {
    const source = new EventSource(`/api/jobs/${enc(id)}/events`);
    let finished = false;
    const stop = () => {
      if (finished) return;
      finished = true;
      source.close();
      reject(stoppedError());
    };
    if (signal?.aborted) stop();
    else signal?.addEventListener('abort', stop, { once: true });
    const parse = (e) => {
      try {
        return JSON.parse(e.data);
      } catch {
        return {};
      }
    };
    source.addEventListener('progress', (e) => onProgress(parse(e)));
    source.addEventListener('done', (e) => {
      finished = true;
      source.close();
      const data = parse(e);
      // The server wraps a job's report: {"result": {"report": ..., "cached"?, "stored"?}}.
      const result = data.result !== undefined ? data.result : data;
      resolve(result && typeof result === 'object' && result.report !== undefined ? result.report : result);
    });
    source.addEventListener('error', (e) => {
      if (finished) return;
      finished = true;
      source.close();
      const data = e.data ? parse(e) : {};
      reject(new ApiError(data.error || 'The job stopped: the connection to the server was lost.', 0));
    });
  });
}
