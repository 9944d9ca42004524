// Small DOM helpers shared by the pages: an element builder and the toasts that
// tell users about errors in plain words.

/// h('div.card#id', {attrs or on*: handlers}, ...children)
export function h(spec, attrs = {}, ...children) {
  if (attrs === null || typeof attrs !== 'object' || attrs instanceof Node || Array.isArray(attrs)) {
    children.unshift(attrs);
    attrs = {};
  }
  const [tagAndClasses, id] = spec.split('#');
  const [tag, ...classes] = tagAndClasses.split('.');
  const node = document.createElement(tag || 'div');
  if (classes.length) node.className = classes.join(' ');
  if (id) node.id = id;
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') node.addEventListener(k.slice(2).toLowerCase(), v);
    else if (k === 'class') node.className += (node.className ? ' ' : '') + v;
    else if (k === 'text') node.textContent = v;
    else if (k === 'html') node.innerHTML = v;
    else if (k in node && typeof v !== 'string') node[k] = v;
    else node.setAttribute(k, v === true ? '' : v);
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(node, c);
    else node.appendChild(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/// Shows a message for a few seconds. kind: 'error' | 'info' | 'success'.
export function toast(message, kind = 'error', ms = 6000) {
  const box = document.getElementById('toasts');
  if (!box) return;
  const close = h('button.toast-close', { type: 'button', 'aria-label': 'Dismiss', onclick: () => item.remove() }, '×');
  const item = h(`div.toast.toast-${kind}`, h('span.toast-text', message), close);
  box.appendChild(item);
  while (box.children.length > 4) box.firstChild.remove();
  setTimeout(() => item.classList.add('fading'), ms - 400);
  setTimeout(() => item.remove(), ms);
}

/// Runs an async action, showing any error as a toast. Returns the result or undefined.
export async function guarded(fn) {
  try {
    return await fn();
  } catch (e) {
    toast(e.message || String(e), 'error');
    return undefined;
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/// The user asked for less motion.
export const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

export function formatNumber(n) {
  return typeof n === 'number' ? n.toLocaleString('en') : String(n ?? '');
}

/// Replaces a node's children, skipping null/false (unlike replaceChildren, which prints "null").
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/// A text whose hyphenated words never end a line (a move's notation "1:1->2"
/// is not broken in two on a narrow screen): each such word is a span that does
/// not wrap, so the text copied or read aloud keeps its plain hyphens (U+2011,
/// the non-breaking hyphen, was pasted and spoken as another character).
export function keepWhole(text) {
  return String(text ?? '').split(' ').flatMap((w, i) => [i ? ' ' : null, w.includes('-') ? h('span.nowrap', w) : w]).filter((w) => w !== null && w !== '');
}
