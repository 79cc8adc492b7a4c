// Charts on uPlot (vendored from npm at build time: web/CMakeLists.txt). Three shapes cover the pages:
// aligned line charts with CI bands and change-point markers (history), point clouds with optional
// lines on log axes (Pareto, roofline), and sample histograms.
import {h} from './dom.js';
import {fmt, isNum, ms, plain} from './format.js';

export const palette = ['#1f6feb', '#d9480f', '#2f9e44', '#9c36b5', '#e67700', '#0c8599', '#c2255c', '#5c940d'];
const live = new Set();  // charts to resize with the window

function haveLibrary(el) {
  if (typeof window.uPlot === 'function') return true;
  el.appendChild(h('p', {class: 'warn'},
    'The chart library (uPlot) is not in this build: install npm and rebuild (web/CMakeLists.txt). Tables below still hold every number.'));
  return false;
}

function widthOf(el) {
  return Math.max(320, Math.floor((el.clientWidth || el.parentElement?.clientWidth || 800) - 8));
}

function make(el, opts, data) {
  const u = new window.uPlot({width: widthOf(el), height: opts.height || 300, ...opts}, data, el);
  u.__el = el;
  // Band edges are series too (uPlot draws bands between two series); keep them out of the legend.
  const rows = u.root.querySelectorAll('.u-legend .u-series');
  opts.series.forEach((s, i) => { if (s.legend === false && rows[i]) rows[i].style.display = 'none'; });
  live.add(u);
  return u;
}

window.addEventListener('resize', () => {
  for (const u of live) {
    if (!document.body.contains(u.root)) { live.delete(u); continue; }
    u.setSize({width: widthOf(u.__el), height: u.height});
  }
});

// Axis labels: uPlot passes null for ticks it wants unlabeled (log-axis minors). `format` turns a value
// into text with its unit (ms → "250 µs", FLOP/s → "40 TFLOP/s"): no "1.00e-4" next to "10000".
const ticks = (format = v => plain(v)) => (u, vals) => vals.map(v => (v === null || v === undefined ? '' : format(v)));

const alpha = (hex, a) => {
  const n = parseInt(hex.slice(1), 16);
  return `rgba(${n >> 16}, ${(n >> 8) & 255}, ${n & 255}, ${a})`;
};

// series: [{label, values, color, lo, hi}] over x = 0..n-1 (runs in order); labels: x tick text;
// markers: [{x, text, color}] drawn as dashed vertical lines (change points).
export function historyChart(el, {labels, series, yLabel, yLog = true, markers = [], height = 280, refLine, yFormat = ms}) {
  if (!haveLibrary(el)) return null;
  const xs = labels.map((_, i) => i);
  const data = [xs];
  const useries = [{label: 'run', value: (u, v) => (v === null || v === undefined ? '–' : labels[v] ?? '')}];
  const bands = [];
  series.forEach((s, i) => {
    const color = s.color || palette[i % palette.length];
    data.push(s.values);
    useries.push({label: s.label, stroke: color, width: 2, points: {show: true, size: 6, fill: color},
                  value: (u, v) => (isNum(v) ? yFormat(v) : '–'), spanGaps: true});
    const mid = data.length - 1;
    if (s.lo && s.hi) {
      data.push(s.hi, s.lo);
      useries.push({label: s.label + ' CI high', stroke: alpha(color, 0.25), width: 1, points: {show: false}, spanGaps: true, legend: false},
                   {label: s.label + ' CI low', stroke: alpha(color, 0.25), width: 1, points: {show: false}, spanGaps: true, legend: false});
      bands.push({series: [mid + 1, mid + 2], fill: alpha(color, 0.12)});
    }
  });
  const n = labels.length;
  return make(el, {
    height,
    scales: {x: {time: false, range: () => [-0.5, Math.max(n - 0.5, 0.5)]}, y: yLog ? {distr: 3, log: 10} : {}},
    series: useries,
    bands,
    axes: [
      {values: (u, vals) => vals.map(v => (Number.isInteger(v) && labels[v] !== undefined ? labels[v] : '')),
       space: 90, size: 40},
      {label: yLabel, size: 80, values: ticks(yFormat)},
    ],
    hooks: {draw: [u => drawMarkers(u, markers, refLine)]},
  }, data);
}

function drawMarkers(u, markers, refLine) {
  const ctx = u.ctx;
  ctx.save();
  const dpr = window.devicePixelRatio || 1;
  if (isNum(refLine)) {
    const y = u.valToPos(refLine, 'y', true);
    ctx.strokeStyle = '#868e96';
    ctx.setLineDash([4 * dpr, 4 * dpr]);
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, y);
    ctx.lineTo(u.bbox.left + u.bbox.width, y);
    ctx.stroke();
  }
  ctx.font = `${11 * dpr}px sans-serif`;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  for (const m of markers) {
    const x = u.valToPos(m.x - 0.5, 'x', true);
    ctx.strokeStyle = m.color || '#e03131';
    ctx.fillStyle = m.color || '#e03131';
    ctx.setLineDash([6 * dpr, 4 * dpr]);
    ctx.lineWidth = 1.5 * dpr;
    ctx.beginPath();
    ctx.moveTo(x, u.bbox.top);
    ctx.lineTo(x, u.bbox.top + u.bbox.height);
    ctx.stroke();
    ctx.fillText(m.text, x + 4 * dpr, u.bbox.top + 14 * dpr + (m.row || 0) * 14 * dpr);
  }
  ctx.restore();
}

// groups: [{label, color, points: [{x, y, text}], line: bool}] on a shared x; every group is drawn as
// points (optionally joined); `lines` are drawn as plain lines (roofs), each labelled at its right end in
// its own colour. Point names show in a tooltip under the cursor (fixed labels piled on each other).
export function pointChart(el, {groups, lines = [], xLabel, yLabel, xLog, yLog, height = 360, xFormat = v => plain(v),
                                yFormat = v => plain(v)}) {
  if (!haveLibrary(el)) return null;
  const xset = new Set();
  for (const g of groups) for (const p of g.points) if (isNum(p.x)) xset.add(p.x);
  for (const l of lines) for (const x of l.xs) xset.add(x);
  const xs = [...xset].sort((a, b) => a - b);
  const index = new Map(xs.map((x, i) => [x, i]));
  const data = [xs];
  const series = [{label: xLabel, value: (u, v) => (isNum(v) ? xFormat(v) : '–')}];
  const texts = [];
  groups.forEach(g => {
    const ys = new Array(xs.length).fill(null);
    for (const p of g.points) if (isNum(p.x) && isNum(p.y)) {
      ys[index.get(p.x)] = p.y;
      texts.push({x: p.x, y: p.y, text: p.text, color: g.color});
    }
    data.push(ys);
    series.push({label: g.label, stroke: g.color, fill: g.color, width: g.line ? 1.5 : 0,
                 paths: g.line ? undefined : () => null, spanGaps: !!g.line,
                 points: {show: true, size: 10, fill: g.color, stroke: g.color},
                 value: (u, v) => (isNum(v) ? yFormat(v) : '–')});
  });
  for (const l of lines) {
    const ys = new Array(xs.length).fill(null);
    l.xs.forEach((x, i) => { ys[index.get(x)] = l.ys[i]; });
    data.push(ys);
    series.push({label: l.label, stroke: l.color, width: 2, dash: l.dash, spanGaps: true, points: {show: false},
                 value: (u, v) => (isNum(v) ? yFormat(v) : '–')});
  }
  const tip = h('div', {class: 'chart-tip', hidden: true});
  const u = make(el, {
    height,
    scales: {x: {time: false, ...(xLog ? {distr: 3, log: 10} : {range: padded})},
             y: yLog ? {distr: 3, log: 10} : {range: padded}},
    series,
    axes: [{label: xLabel, values: ticks(xFormat)}, {label: yLabel, size: 90, values: ticks(yFormat)}],
    hooks: {draw: [u => drawLineLabels(u, lines)], setCursor: [u => showTip(u, tip, texts, xFormat, yFormat)]},
  }, data);
  u.over.appendChild(tip);
  return u;
}

// The point nearest the cursor (within 14 px), named in a small box beside it.
function showTip(u, tip, texts, xFormat, yFormat) {
  const {left, top} = u.cursor;
  if (!isNum(left) || left < 0) { tip.hidden = true; return; }
  let best = null, bestD = 14 * 14;
  for (const t of texts) {
    const dx = u.valToPos(t.x, 'x') - left, dy = u.valToPos(t.y, 'y') - top;
    const d = dx * dx + dy * dy;
    if (d < bestD) { bestD = d; best = t; }
  }
  if (!best) { tip.hidden = true; return; }
  tip.hidden = false;
  tip.textContent = `${best.text}: ${xFormat(best.x)}, ${yFormat(best.y)}`;
  const x = u.valToPos(best.x, 'x'), y = u.valToPos(best.y, 'y');
  tip.style.left = Math.min(x + 12, u.over.clientWidth - 260) + 'px';
  tip.style.top = Math.max(y - 28, 0) + 'px';
  tip.style.borderColor = best.color;
}

// Each roof's name at its right end, in the roof's colour; names that would overlap move down a line.
function drawLineLabels(u, lines) {
  if (!lines.length) return;
  const ctx = u.ctx, dpr = window.devicePixelRatio || 1;
  ctx.save();
  ctx.font = `${11 * dpr}px sans-serif`;
  ctx.textAlign = 'right';
  ctx.textBaseline = 'bottom';
  const placed = [];
  const right = u.bbox.left + u.bbox.width - 4 * dpr;
  for (const l of lines) {
    if (!l.name) continue;
    const yEnd = l.ys[l.ys.length - 1];
    let y = Math.max(u.bbox.top + 12 * dpr, u.valToPos(yEnd, 'y', true) - 3 * dpr);
    while (placed.some(p => Math.abs(p - y) < 13 * dpr)) y += 13 * dpr;
    placed.push(y);
    ctx.fillStyle = l.color;
    ctx.fillText(l.name, right, y);
  }
  ctx.restore();
}

// Linear axes get 10% room around the data so points at the extremes are not cut by the frame.
function padded(u, min, max) {
  if (min === null || max === null) return [0, 1];
  const span = max - min || Math.abs(max) || 1;
  return [min - span * 0.12, max + span * 0.12];
}

// Sample histograms of several variants. relative: x = deviation from each variant's own median (%),
// so the noise shapes of a 1 ms baseline and a 20 µs variant can be compared on one axis.
export function histogramChart(el, {variants, relative, bins = 40, height = 260}) {
  if (!haveLibrary(el)) return null;
  const transformed = variants.map(v => {
    const sorted = [...v.samples].filter(isNum).sort((a, b) => a - b);
    const med = sorted.length ? sorted[Math.floor(sorted.length / 2)] : NaN;
    return {label: v.label, color: v.color, values: relative ? sorted.map(s => (s / med - 1) * 100) : sorted};
  });
  // Bins over the central 99% of all values, so one outlier does not squeeze the rest into a bin.
  const all = transformed.flatMap(t => t.values).sort((a, b) => a - b);
  if (!all.length) return null;
  let lo = all[Math.floor(all.length * 0.005)], hi = all[Math.min(all.length - 1, Math.floor(all.length * 0.995))];
  if (hi <= lo) { lo -= 1e-9; hi += 1e-9; }
  const w = (hi - lo) / bins;
  const xs = Array.from({length: bins}, (_, i) => lo + (i + 0.5) * w);
  const data = [xs];
  const xFormat = relative ? (v => fmt(v, 3) + ' %') : ms;
  const series = [{label: relative ? 'vs own median' : 'time per run', value: (u, v) => (isNum(v) ? xFormat(v) : '–')}];
  transformed.forEach((t, i) => {
    const counts = new Array(bins).fill(0);
    for (const v of t.values) {
      const b = Math.floor((v - lo) / w);
      if (b >= 0 && b < bins) counts[b]++;
    }
    data.push(counts.map(c => c / Math.max(t.values.length, 1)));
    const color = t.color || palette[i % palette.length];
    series.push({label: `${t.label} (n=${t.values.length})`, stroke: color, fill: alpha(color, 0.18), width: 1.5,
                 paths: window.uPlot.paths.stepped({align: 0}), points: {show: false},
                 value: (u, v) => (isNum(v) ? fmt(v * 100, 3) + ' %' : '–')});
  });
  return make(el, {
    height,
    scales: {x: {time: false}},
    series,
    axes: [{label: relative ? 'deviation from the variant\u2019s median (%)' : 'time per run',
            values: ticks(xFormat)},
           {label: 'share of samples', size: 60, values: (u, v) => v.map(x => (x === null ? '' : fmt(x * 100, 2) + '%'))}],
  }, data);
}

// Samples in the order they were taken (interleaved blocks), log time axis: drift and outliers show here.
export function sampleSeriesChart(el, {variants, height = 240}) {
  if (!haveLibrary(el)) return null;
  const n = Math.max(...variants.map(v => v.samples.length), 0);
  const data = [Array.from({length: n}, (_, i) => i)];
  const series = [{label: 'sample'}];
  variants.forEach((v, i) => {
    const color = v.color || palette[i % palette.length];
    data.push(Array.from({length: n}, (_, k) => (k < v.samples.length ? v.samples[k] : null)));
    series.push({label: v.label, stroke: color, width: 0, paths: () => null, points: {show: true, size: 3, fill: color},
                 value: (u, x) => (isNum(x) ? ms(x) : '–')});
  });
  return make(el, {
    height,
    scales: {x: {time: false}, y: {distr: 3, log: 10}},
    series,
    axes: [{label: 'sample index (timing order)'}, {label: 'time per run', size: 80, values: ticks(ms)}],
  }, data);
}
