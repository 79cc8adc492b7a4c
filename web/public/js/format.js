// Number formatting and the small visual vocabulary (verdict badges, CI bars) used on every page.
import {h} from './dom.js';

export const isNum = v => typeof v === 'number' && Number.isFinite(v);

export function fmt(v, digits = 3) {
  if (!isNum(v)) return '–';
  const a = Math.abs(v);
  if (a !== 0 && (a >= 1e6 || a < 1e-3)) return v.toExponential(2);
  return Number(v.toPrecision(digits)).toString();
}

export function ms(v) {
  if (!isNum(v)) return '–';
  if (v >= 1000) return fmt(v / 1000, 4) + ' s';
  if (v >= 1) return fmt(v, 4) + ' ms';
  if (v === 0 || v >= 1e-3) return fmt(v * 1000, 4) + ' µs';
  return fmt(v * 1e6, 4) + ' ns';
}

export const pct = (v, digits = 3) => (isNum(v) ? fmt(v, digits) + ' %' : '–');
export const speed = v => (isNum(v) ? fmt(v, 4) + '×' : '–');

// SI prefixes for rates: 3.35e12 B/s → "3.35 TB/s", 4.2e13 FLOP/s → "42 TFLOP/s" (never "4.2e+13").
export function rate(v, unit, digits = 4) {
  if (!isNum(v)) return '–';
  const steps = [[1e15, 'P'], [1e12, 'T'], [1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
  for (const [f, p] of steps) if (Math.abs(v) >= f) return Number((v / f).toPrecision(digits)) + ' ' + p + unit;
  return Number(v.toPrecision(digits)) + ' ' + unit;
}

// A dimensionless axis value without exponents: 0.01, 0.5, 12, 3.4 k, 10 M.
export function plain(v, digits = 3) {
  if (!isNum(v)) return '–';
  const a = Math.abs(v);
  if (a >= 1e3) return rate(v, '', digits).trim();
  if (a === 0 || a >= 1e-4) return String(Number(v.toPrecision(digits)));
  return v.toExponential(1);
}

// A value in the unit a server field names: "GB/s" and "TFLOP/s" in SI steps, "ms" as a time.
export function withUnit(v, unit) {
  if (!isNum(v)) return '–';
  const u = (unit || '').trim();
  if (u === 'GB/s') return rate(v * 1e9, 'B/s');
  if (u === 'TB/s') return rate(v * 1e12, 'B/s');
  if (u === 'TFLOP/s' || u === 'TFLOPS') return rate(v * 1e12, 'FLOP/s');
  if (u === 'GFLOP/s') return rate(v * 1e9, 'FLOP/s');
  if (u === 'FLOP/s' || u === 'B/s') return rate(v, u);
  const perSecond = /^(.*?)\s*(bytes|B|FLOP|flop)\/s$/.exec(u);  // "PCIe bytes/s" → "55.1 GB/s (PCIe)"
  if (perSecond) return rate(v, /^(bytes|B)$/.test(perSecond[2]) ? 'B/s' : 'FLOP/s') + (perSecond[1] ? ` (${perSecond[1]})` : '');
  if (u === 'ms') return ms(v);
  if (u === 'us' || u === 'µs') return ms(v / 1000);
  if (u === 'TOP/s' || u === 'TOPS') return rate(v * 1e12, 'OP/s');
  if (u === '%') return pct(v);
  return `${fmt(v, 4)} ${u}`.trim();
}

// Verdict or status badge; the color says how to read it (docs/dashboard.md, "Pages"). The server
// decides the word from the target's status (a failed target never carries a success word); the color
// follows the word: green FASTER, red for every failure and regression, grey SAME, amber INCONCLUSIVE.
export const BAD_BADGES = new Set(['FAILED', 'REGRESSION', 'MISSED', 'SLOWER', 'INVALID']);
export function badge(word, title) {
  const w = (word || 'NONE').toUpperCase();
  return h('span', {class: 'badge b-' + w.toLowerCase().replace(/[^a-z]/g, '_'), title: title || null}, w);
}
export const badgeTone = word => (BAD_BADGES.has(word) ? 'bad' : word === 'FASTER' ? 'good' : word === 'INCONCLUSIVE' ? 'warn' : '');

// "expected 1.20× [1.199, 1.202], measured 0.933× [0.912, 0.940]": the expectation a result was held to.
export function expectationText(e, v) {
  if (!e || !isNum(e.expected_speedup)) return '';
  const exp = `expected ${fmt(e.expected_speedup, 4)}×` + (isNum(e.expected_ci_low) ? ` [${fmt(e.expected_ci_low, 4)}, ${fmt(e.expected_ci_high, 4)}]` : '');
  const got = v && isNum(v.speedup) ? `, measured ${fmt(v.speedup, 4)}× [${fmt(v.ci_low, 4)}, ${fmt(v.ci_high, 4)}]` : '';
  return exp + got + (isNum(e.tolerance) ? ` (tolerance ${fmt(e.tolerance * 100, 2)} %)` : '');
}

export function changeBadge(change) {
  const cls = {faster: 'faster', slower: 'slower', same: 'same', unclear: 'inconclusive'}[change] || 'none';
  // The store names the two runs A and B; the page calls them baseline and candidate.
  const text = {'only in A': 'only in baseline', 'only in B': 'only in candidate'}[change] || change;
  return h('span', {class: 'badge b-' + cls}, text || '–');
}

// "6.22× [6.21, 6.22]" plus a bar: the CI on a log axis around 1 (and the minimum speedup, dashed).
// scale: the bar's ends; the default 1/4×…64× keeps "same" and big wins both readable, a run-to-run
// comparison uses a narrow one.
export function speedupCell(s, lo, hi, minSpeedup, scale = [0.25, 64]) {
  if (!isNum(s)) return h('span', {class: 'muted'}, '–');
  return h('span', {class: 'speedup'},
    h('span', {class: 'num'}, speed(s)),
    h('span', {class: 'ci'}, isNum(lo) && isNum(hi) ? `[${fmt(lo, 4)}, ${fmt(hi, 4)}]` : ''),
    isNum(lo) && isNum(hi) ? ciBar(lo, hi, s, minSpeedup, scale) : null);
}

function ciBar(lo, hi, s, minSpeedup, scale) {
  const L = Math.log(scale[0]), R = Math.log(scale[1]);
  const x = v => Math.max(0, Math.min(100, (Math.log(Math.max(v, 1e-9)) - L) / (R - L) * 100));
  const cls = lo > (minSpeedup || 1.05) ? 'up' : hi < 1 ? 'down' : 'flat';
  return h('span', {class: 'cibar', title: `95% CI ${fmt(lo, 4)} – ${fmt(hi, 4)} (bar: ${scale[0]}× … ${scale[1]}×, log)`},
    h('span', {class: 'one', style: {left: x(1) + '%'}}),
    isNum(minSpeedup) ? h('span', {class: 'min', style: {left: x(minSpeedup) + '%'}}) : null,
    h('span', {class: 'range ' + cls, style: {left: `calc(${x(lo)}% - 1px)`, width: `calc(${Math.max(x(hi) - x(lo), 0)}% + 3px)`}}),
    h('span', {class: 'dot', style: {left: x(s) + '%'}}));
}

export function shortCommit(c, dirty) {
  return c ? c.slice(0, 8) + (dirty ? '*' : '') : '–';
}

export function ago(seconds) {
  if (!isNum(seconds) || seconds < 0) return '?';
  if (seconds < 90) return Math.round(seconds) + ' s ago';
  if (seconds < 5400) return Math.round(seconds / 60) + ' min ago';
  return fmt(seconds / 3600, 2) + ' h ago';
}

// "20261122_090130" → "2026-11-22 09:01:30"
export function stamp(s) {
  const m = /^(\d{4})(\d{2})(\d{2})_(\d{2})(\d{2})(\d{2})$/.exec(s || '');
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}` : (s || '–');
}
