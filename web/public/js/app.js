// Hash router (#/, #/target/<id>, #/compare?baseline=&candidate=, #/runs[/<id>], #/analysis, #/hardware)
// and the run-in-progress banner, which polls /api/progress and refreshes the page when a run finishes.
import {api} from './api.js';
import {clear, h} from './dom.js';
import {ago} from './format.js';
import * as overview from './pages/overview.js';
import * as target from './pages/target.js';
import * as compare from './pages/compare.js';
import * as runs from './pages/runs.js';
import * as analysis from './pages/analysis.js';
import * as hardware from './pages/hardware.js';

const routes = [
  [/^\/?$/, overview, 'overview'],
  [/^\/target\/(.+)$/, target, 'overview'],
  [/^\/compare$/, compare, 'compare'],
  [/^\/runs(?:\/([^/]+))?$/, runs, 'runs'],
  [/^\/analysis$/, analysis, 'analysis'],
  [/^\/hardware$/, hardware, 'hardware'],
];

// Timers a page starts live until the next navigation.
class Lifetime {
  constructor() { this.timers = []; }
  every(msInterval, fn) { this.timers.push(setInterval(fn, msInterval)); }
  end() { this.timers.forEach(clearInterval); }
}

let lifetime = new Lifetime();
let generation = 0;

async function show() {
  const raw = location.hash.replace(/^#/, '') || '/';
  const [path, qs] = raw.split('?');
  const query = new URLSearchParams(qs || '');
  const main = document.getElementById('main');
  lifetime.end();
  lifetime = new Lifetime();
  const mine = ++generation;
  clear(main);
  for (const [re, page, nav] of routes) {
    const m = re.exec(path);
    if (!m) continue;
    document.querySelectorAll('nav a').forEach(a => a.classList.toggle('active', a.dataset.nav === nav));
    // data-gen tells one rendering from the next: a test (or anything else) waiting for "the page I
    // navigated to has loaded" waits for a newer generation, never the old page's data-loaded.
    const root = h('div', {class: 'page', 'data-page': nav, 'data-gen': mine, 'data-hash': location.hash || '#/'});
    main.appendChild(root);
    try {
      await page.render(root, {id: m[1] !== undefined ? decodeURIComponent(m[1]) : undefined, query}, lifetime);
      if (mine === generation) root.setAttribute('data-loaded', 'true');
    } catch (e) {
      root.appendChild(h('p', {class: 'error', 'data-error': 'true'}, e.message));
      if (mine === generation) root.setAttribute('data-loaded', 'error');
    }
    return;
  }
  main.appendChild(h('div', {class: 'page', 'data-gen': mine, 'data-loaded': 'error'}, h('p', {class: 'error'}, `no page at #${path}`)));
}

let lastFinished = null;

async function pollProgress() {
  const banner = document.getElementById('progress');
  try {
    const p = await api('progress');
    const active = p.active.filter(a => !a.probably_abandoned);
    banner.replaceChildren(...active.map(a => h('div', {class: 'running'},
      h('span', {class: 'spinner'}), ` Run in progress: ${a.run} — `,
      a.target ? `${a.target} (${a.completed + 1} of ${a.total})` : a.state, `, updated ${ago(a.updated_seconds_ago)}`,
      h('span', {class: 'bar'}, h('span', {style: {width: (a.total ? 100 * a.completed / a.total : 0) + '%'}})))));
    banner.hidden = active.length === 0;
    const finished = p.last_finished ? p.last_finished.run : null;
    // A run that finished since the last poll is in the store now: reload what is on screen.
    if (lastFinished !== null && finished !== lastFinished) show();
    lastFinished = finished;
  } catch (e) {
    banner.hidden = false;
    banner.replaceChildren(h('div', {class: 'error'}, e.message));
  }
}

// With no results store of the user's, the server shows the shipped reference runs: every page says so.
async function datasetBanner() {
  try {
    const health = await api('health');
    const d = health.dataset || {};
    const banner = document.getElementById('dataset');
    banner.hidden = !d.reference;
    if (d.reference) banner.replaceChildren(h('b', {}, 'Reference dataset — '), d.label,
      '. Your own runs appear once `aisp bench run` has stored one (or start with --data <store>).');
  } catch (e) { /* the pages report an unreachable server themselves */ }
}

window.addEventListener('hashchange', show);
datasetBanner();
show();
pollProgress();
setInterval(pollProgress, 3000);
