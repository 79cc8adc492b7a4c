// Tiny DOM builder. Text always goes in as text nodes (never innerHTML): target names, labels and check
// details come from files on disk and must not be able to inject markup.
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

// A table from column specs: {label, value(row) -> Node|string, cls, title}.
export function table(columns, rows, opts = {}) {
  return h('table', {class: 'grid ' + (opts.cls || '')},
    h('thead', {}, h('tr', {}, columns.map(c => h('th', {class: c.cls, title: c.title}, c.label)))),
    h('tbody', {}, rows.length ? rows.map(r => h('tr', {class: opts.rowClass ? opts.rowClass(r) : null},
        columns.map(c => h('td', {class: c.cls}, c.value(r)))))
      : h('tr', {class: 'empty-row'}, h('td', {colspan: columns.length, class: 'empty'}, opts.empty || 'nothing to show'))));
}

export function card(title, ...body) {
  return h('section', {class: 'card'}, title ? h('h2', {}, title) : null, ...body);
}

// A table whose columns sort and whose rows filter, for lists longer than a screen.
// columns: as for table(), plus sort(row) -> number | string (null/undefined sort last); a column without
// `sort` is not sortable. opts: as for table(), plus filterId / filterPlaceholder (a text box that keeps
// the rows whose cells' text contains every word typed, case-insensitive), initialSort: [column index,
// 'asc' | 'desc'], tools: extra toolbar elements. Rows are built once; sorting and filtering only reorder
// and re-attach them, so a filtered-out row is not in the DOM (counting `tbody tr` counts what is shown).
export function dataTable(columns, rows, opts = {}) {
  const built = rows.map(r => {
    const tr = h('tr', {class: opts.rowClass ? opts.rowClass(r) : null}, columns.map(c => h('td', {class: c.cls}, c.value(r))));
    return {r, tr, text: tr.textContent.toLowerCase()};
  });
  const tbody = h('tbody');
  let sortBy = opts.initialSort ? opts.initialSort[0] : -1, dir = opts.initialSort ? opts.initialSort[1] : 'asc';
  const heads = columns.map((c, i) => h('th', {class: (c.cls || '') + (c.sort ? ' sortable' : ''), title: c.title,
    tabindex: c.sort ? 0 : null, onclick: c.sort ? () => { dir = sortBy === i && dir === 'asc' ? 'desc' : 'asc'; sortBy = i; draw(); } : null},
    c.label, c.sort ? h('span', {class: 'sort-mark'}) : null));
  // filterInput: a text box shared by several tables (e.g. one per GPU), owned by the caller.
  const own = opts.filterInput === undefined && opts.filterId !== undefined;
  const filter = opts.filterInput || (own
    ? h('input', {type: 'search', id: opts.filterId || null, placeholder: opts.filterPlaceholder || 'filter rows…',
                  'aria-label': opts.filterPlaceholder || 'filter rows'})
    : null);
  const count = h('span', {class: 'muted small'});
  const compare = (a, b) => {
    if (a === b) return 0;
    if (a === null || a === undefined || (typeof a === 'number' && !Number.isFinite(a))) return 1;
    if (b === null || b === undefined || (typeof b === 'number' && !Number.isFinite(b))) return -1;
    const c = typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), undefined, {numeric: true});
    return dir === 'asc' ? c : -c;
  };
  function draw() {
    const words = filter ? filter.value.trim().toLowerCase().split(/\s+/).filter(Boolean) : [];
    let shown = built.filter(b => words.every(w => b.text.includes(w)));
    if (sortBy >= 0) {
      const key = columns[sortBy].sort;
      shown = [...shown].sort((x, y) => compare(key(x.r), key(y.r)));
    }
    heads.forEach((th, i) => {
      th.setAttribute('aria-sort', i === sortBy ? (dir === 'asc' ? 'ascending' : 'descending') : 'none');
      const mark = th.querySelector('.sort-mark');
      if (mark) mark.textContent = i === sortBy ? (dir === 'asc' ? ' ▲' : ' ▼') : '';
    });
    tbody.replaceChildren(...(shown.length ? shown.map(b => b.tr)
      : [h('tr', {class: 'empty-row'}, h('td', {colspan: columns.length, class: 'empty'}, rows.length ? 'no row matches the filter' : (opts.empty || 'nothing to show')))]));
    count.textContent = words.length ? `${shown.length} of ${rows.length} rows` : '';
  }
  if (filter) filter.addEventListener('input', draw);
  draw();
  const tbl = h('table', {class: 'grid ' + (opts.cls || '')}, h('thead', {}, h('tr', {}, heads)), tbody);
  const tools = [own ? filter : null, ...(opts.tools || []), count].filter(Boolean);
  return h('div', {class: 'datatable'}, own || (opts.tools || []).length ? h('div', {class: 'toolbar'}, tools) : count, tbl);
}
