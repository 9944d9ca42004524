// A small SVG line plot (learning curves).

import { el } from './render.js';
import { h } from './ui.js';

/// {series: [{name, colour, points: [[x, y]]}], xLabel, yLabel, yMax, percent, xMax}
/// (`xMax`: the x axis's end when known ahead, so a growing curve grows rightwards).
export function linePlot({ series, xLabel = '', yLabel = '', yMax = null, percent = false, xMax: xEnd = null }) {
  const W = 320;
  const H = 190;
  const m = { l: 40, r: 10, t: 10, b: 34 };
  const all = series.flatMap((s) => s.points);
  const xMax = xEnd ?? Math.max(1, ...all.map((p) => p[0]));
  const top = yMax ?? Math.max(1e-9, ...all.map((p) => p[1]));
  const X = (x) => m.l + (x / xMax) * (W - m.l - m.r);
  const Y = (y) => H - m.b - (y / top) * (H - m.t - m.b);
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, class: 'plot', role: 'img', 'aria-label': `${yLabel} against ${xLabel}` });
  for (let i = 0; i <= 4; i++) {
    const v = (top * i) / 4;
    el('line', { x1: m.l, x2: W - m.r, y1: Y(v), y2: Y(v), class: 'grid' }, svg);
    const t = el('text', { x: m.l - 6, y: Y(v), 'text-anchor': 'end', 'dominant-baseline': 'central', class: 'tick' }, svg);
    t.textContent = percent ? `${Math.round(v * 100)}%` : String(+v.toFixed(2));
  }
  for (let i = 0; i <= 4; i++) {
    const v = (xMax * i) / 4;
    // The last label ends at the axis's end, so it is never cut off.
    const t = el('text', { x: X(v), y: H - m.b + 14, 'text-anchor': i === 4 ? 'end' : i === 0 ? 'start' : 'middle', class: 'tick' }, svg);
    t.textContent = String(Math.round(v));
  }
  const xl = el('text', { x: (W + m.l) / 2, y: H - 4, 'text-anchor': 'middle', class: 'axis-label' }, svg);
  xl.textContent = xLabel;
  for (const s of series) {
    if (!s.points.length) continue;
    const d = s.points.map((p, i) => `${i ? 'L' : 'M'}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(' ');
    el('path', { d, fill: 'none', stroke: s.colour, 'stroke-width': 2.2, 'stroke-linejoin': 'round', class: 'series' }, svg);
    for (const p of s.points) el('circle', { cx: X(p[0]), cy: Y(p[1]), r: 2.6, fill: s.colour }, svg);
  }
  const legend = h('ul.plot-legend', ...series.map((s) => h('li', h('span.swatch', { style: `background:${s.colour}` }), s.name)));
  return h('figure.plot-figure', svg, legend);
}
