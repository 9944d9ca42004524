// The home page: every registered game with a small picture of its board.
//
// The picture is drawn by the same renderer as the game page, from the view
// model of a fresh session (all seats human, so nothing is computed). It is
// cached in localStorage per game and variant, so a visit creates at most one
// session per game; games registered later appear without any change here.

import * as API from './api.js';
import { thumbnail } from './render.js';
import { h, toast, fill } from './ui.js';
import { loadSeatColours } from './settings.js';
import { plain } from './words.js';

const THUMB_VERSION = 1;

function thumbKey(info) {
  return `tabula.thumb.v${THUMB_VERSION}.${info.name}.${info.variant}`;
}

async function thumbView(info) {
  const key = thumbKey(info);
  try {
    const cached = localStorage.getItem(key);
    if (cached) return JSON.parse(cached);
  } catch {
    /* private mode: draw without caching */
  }
  const created = await API.createSession({ game: info.name, players: info.seats.map(() => 'human'), seed: 1 });
  const view = created.view.view;
  try {
    localStorage.setItem(key, JSON.stringify(view));
  } catch {
    /* storage full: fine */
  }
  return view;
}

function tags(info) {
  const list = [];
  if (info.puzzle) list.push('puzzle');
  else list.push(`${info.seats.length} players`);
  if (info.chance) list.push('dice');
  if (info.exact) list.push('solved');
  return list;
}

export async function renderHome(main, { navigate }) {
  fill(main, 
    h('section.hero',
      h('h1', 'Tabula'),
      h('p.lede', 'Classic mathematical games to play, study and solve — against a computer that can play perfectly, or learn as it goes.')),
    h('p.loading', 'Loading the games…'),
  );
  let list;
  try {
    list = await API.games();
  } catch (e) {
    main.querySelector('.loading').replaceWith(h('div.empty', h('p', 'The list of games could not be loaded: ' + e.message)));
    toast(e.message);
    return;
  }
  const grid = h('ul.game-grid', { 'aria-label': 'Games' });
  const jobs = [];
  for (const info of list) {
    const picture = h('div.thumb', { 'aria-hidden': 'true' }, h('div.thumb-placeholder'));
    const last = localStorage.getItem(`tabula.session.${info.name}`);
    const card = h('li.game-card',
      h('a.game-link', { href: `/game/${encodeURIComponent(info.name)}`, 'data-link': true, 'data-game': info.name },
        picture,
        h('div.game-text',
          h('h2', info.title),
          h('p.summary', plain(info.summary)),
          h('p.tags', tags(info).map((t) => h('span.tag', t)), last ? h('span.tag.tag-continue', 'continue') : null))));
    grid.appendChild(card);
    jobs.push(async () => {
      try {
        const view = await thumbView(info);
        const colours = loadSeatColours(info.name, info.seats);
        fill(picture, );
        const board = thumbnail(picture, view, (seat) => colours[seat]);
        // A board much taller than wide (Auto120's track) would be a narrow strip
        // in the wide picture: it fills the width instead and shows its top rows,
        // where the pieces start, large enough to read.
        const box = board.svg.viewBox?.baseVal;
        if (box && box.height > box.width * 1.1) {
          board.svg.setAttribute('preserveAspectRatio', 'xMidYMin slice');
          picture.classList.add('thumb-tall');
        }
      } catch (e) {
        fill(picture, h('div.thumb-fallback', info.title.slice(0, 1)));
      }
    });
  }
  main.querySelector('.loading').replaceWith(grid);
  // Two at a time: the server is shared with the boards being played.
  const queue = [...jobs];
  const worker = async () => {
    while (queue.length) await queue.shift()();
  };
  await Promise.all([worker(), worker()]);
}
