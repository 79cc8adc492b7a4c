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
      : h('tr', {}, h('td', {colspan: columns.length, class: 'empty'}, opts.empty || 'nothing to show'))));
}

export function card(title, ...body) {
  return h('section', {class: 'card'}, title ? h('h2', {}, title) : null, ...body);
}
