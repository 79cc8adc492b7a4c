// The REST API: every answer is {status, result, error}. A failed request throws an Error whose message
// is the server's (e.g. "unknown parameter 'limt'"), shown where the data would have been.
export async function api(path, params = {}) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') qs.set(k, v);
  const url = '/api/' + path + (qs.toString() ? '?' + qs : '');
  let res;
  try {
    res = await fetch(url, {headers: {Accept: 'application/json'}});
  } catch (e) {
    throw new Error('the aisp server is not reachable (' + e.message + ')');
  }
  let body;
  try {
    body = await res.json();
  } catch (e) {
    throw new Error(`HTTP ${res.status} from ${url} (not JSON)`);
  }
  if (body.status !== 'ok') throw new Error(body.error || `HTTP ${res.status}`);
  return body.result;
}

// Target ids contain ':' and, for labs, '/': encode the whole id as one path segment.
export const targetPath = (id, what) => 'targets/' + encodeURIComponent(id) + '/' + what;
