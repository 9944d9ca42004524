// The single-page app: `/` lists the games, `/game/{name}` plays one.

import { renderHome } from './home.js';
import { GamePage } from './game.js';
import { h, fill } from './ui.js';

let current = null;

export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  route();
}

function setCrumbs(items) {
  const nav = document.getElementById('crumbs');
  fill(nav, ...items.flatMap((item, i) => [
    i ? h('span.crumb-sep', { 'aria-hidden': 'true' }, '/') : null,
    item.href ? h('a', { href: item.href, 'data-link': true }, item.text) : h('span', { 'aria-current': 'page' }, item.text),
  ]));
}

async function route() {
  current?.destroy?.();
  current = null;
  const main = document.getElementById('main');
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const m = /^\/game\/([^/]+)$/.exec(path);
  if (m) {
    const name = decodeURIComponent(m[1]);
    setCrumbs([{ text: 'Games', href: '/' }, { text: name }]);
    current = new GamePage(main, name, { setCrumbs, navigate });
    await current.start();
  } else {
    setCrumbs([{ text: 'Games' }]);
    document.title = 'Tabula';
    await renderHome(main, { navigate });
  }
}

document.addEventListener('click', (e) => {
  const a = e.target.closest?.('a[data-link]');
  if (!a || e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
});

window.addEventListener('popstate', route);
route();
