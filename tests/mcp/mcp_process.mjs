// Helpers shared by the tests: where the binary and the reference results are, a temporary results store
// holding the reference runs, and a raw JSON-RPC session over `aisp mcp`'s stdio (for what the SDK client
// never sends: garbage, wrong versions, batches, signals).
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const AISP = process.env.AISP_EXE ?? path.resolve(here, '../../build/aisp');
export const SOURCE_DIR = process.env.AISP_SOURCE_DIR ?? path.resolve(here, '../..');

// A temp dir with ref.db: the H100 reference runs of results/reference ingested with `aisp bench ingest`.
export function referenceStore() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aisp-mcp-test-'));
  const root = path.join(SOURCE_DIR, 'results', 'reference', 'h100_80gb_hbm3');
  const runs = fs.readdirSync(root).filter((d) => d.includes('__bench__')).map((d) => path.join(root, d)).sort();
  const db = path.join(tmp, 'ref.db');
  execFileSync(AISP, ['bench', 'ingest', '--db', db, ...runs], { stdio: ['ignore', 'ignore', 'pipe'] });
  return { tmp, db, runs, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
}

export const init = (id, version = '2025-11-25') => ({
  jsonrpc: '2.0', id, method: 'initialize',
  params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw-test', version: '1' } },
});
export const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

// Starts `aisp mcp ...args`, writes `lines` (strings are sent as they are, objects as JSON), waits until
// `expect` responses arrived (or `timeoutMs`), then closes stdin and waits for the exit. Returns every
// stdout line raw, the parsed messages, stderr, exit code/signal and how long the exit took after EOF.
export function rawSession(lines, { args = [], env = {}, expect = 0, timeoutMs = 30000, closeStdin = true, onSpawn } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(AISP, ['mcp', ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let eofAt = 0;
    const raw = [];
    const finish = () => {
      if (eofAt) return;
      eofAt = Date.now();
      if (closeStdin) child.stdin.end();
    };
    const timer = setTimeout(finish, timeoutMs);
    child.stdout.on('data', (d) => {
      out += d;
      let nl;
      while ((nl = out.indexOf('\n')) >= 0) {
        raw.push(out.slice(0, nl));
        out = out.slice(nl + 1);
      }
      if (expect && raw.length >= expect) finish();
    });
    child.stderr.on('data', (d) => { err += d; });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (out.length) raw.push(out);  // an unterminated last line is itself a protocol violation
      const messages = raw.map((l) => { try { return JSON.parse(l); } catch { return { unparsable: l }; } });
      resolve({ raw, messages, stderr: err, code, signal, exitMs: eofAt ? Date.now() - eofAt : -1 });
    });
    if (onSpawn) onSpawn(child);
    child.stdin.on('error', () => {});  // the server may stop reading a hostile stream early
    // Strings and Buffers (raw bytes, e.g. invalid UTF-8) are sent as they are, objects as JSON.
    for (const l of lines) {
      if (Buffer.isBuffer(l)) child.stdin.write(Buffer.concat([l, Buffer.from('\n')]));
      else child.stdin.write((typeof l === 'string' ? l : JSON.stringify(l)) + '\n');
    }
    if (!expect) finish();
  });
}
