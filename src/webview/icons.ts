/**
 * The panel's icons: small inline SVGs drawn on a 16×16 grid in `currentColor`, so they follow the
 * theme. Built with DOM APIs (inline SVG elements are not subject to the CSP's img-src).
 */

const svgNs = 'http://www.w3.org/2000/svg';

interface Shape {
  readonly paths?: readonly string[];
  readonly rects?: readonly (readonly [number, number, number, number])[];
  readonly circles?: readonly (readonly [number, number, number])[];
  readonly filled?: boolean;
}

const shapes = {
  copy: { rects: [[5.5, 5.5, 8, 8]], paths: ['M10.5 5.5V3a.5.5 0 0 0-.5-.5H3a.5.5 0 0 0-.5.5v7a.5.5 0 0 0 .5.5h2.5'] },
  insert: { paths: ['M8 2v8', 'M5 7l3 3 3-3', 'M2.5 13.5h11'] },
  replace: { paths: ['M2.5 5.5h10l-2.5-2.5', 'M13.5 10.5h-10l2.5 2.5'] },
  open: { paths: ['M9.5 2.5h4v4', 'M13.5 2.5L7.5 8.5', 'M12 9.5V13a.5.5 0 0 1-.5.5H3a.5.5 0 0 1-.5-.5V4.5A.5.5 0 0 1 3 4h3.5'] },
  refresh: { paths: ['M13 8a5 5 0 1 1-1.46-3.54', 'M13 2.5v3h-3'] },
  plus: { paths: ['M8 3v10', 'M3 8h10'] },
  trash: { paths: ['M2.5 4.5h11', 'M6 4.5v-2h4v2', 'M4 4.5l.7 9h6.6l.7-9'] },
  edit: { paths: ['M10.5 2.5l3 3-7.5 7.5-3.5.5.5-3.5z'] },
  rename: { paths: ['M2.5 5.5h8', 'M2.5 10.5h5', 'M13 3.5v9', 'M11.5 3h3', 'M11.5 13h3'] },
  export: { paths: ['M8 10V2.5', 'M5 5l3-3 3 3', 'M2.5 9.5v4h11v-4'] },
  stop: { rects: [[4, 4, 8, 8]], filled: true },
  send: { paths: ['M2 8.5l12-6-4.5 12-2-4.5z', 'M7.5 10l6.5-7.5'] },
  image: { rects: [[2, 3, 12, 10]], circles: [[6, 6.5, 1.2]], paths: ['M2.5 12.5l4-4 3 3 2-2 2.5 2.5'] },
  close: { paths: ['M4 4l8 8', 'M12 4l-8 8'] },
  audio: { paths: ['M2.5 6h2.5l3.5-3v10l-3.5-3h-2.5z', 'M11 5.5a3.5 3.5 0 0 1 0 5', 'M12.8 3.5a6 6 0 0 1 0 9'] },
  mic: { rects: [[6, 1.5, 4, 8]], paths: ['M3.5 7.5a4.5 4.5 0 0 0 9 0', 'M8 12v2.5', 'M5.5 14.5h5'] },
  list: { paths: ['M2.5 4h11', 'M2.5 8h11', 'M2.5 12h11'] },
  settings: {
    paths: ['M2 4h6', 'M11 4h3', 'M2 8h2', 'M7 8h7', 'M2 12h7', 'M12 12h2'],
    circles: [
      [9.5, 4, 1.5],
      [5.5, 8, 1.5],
      [10.5, 12, 1.5],
    ],
  },
  chevron: { paths: ['M4 6l4 4 4-4'] },
  check: { paths: ['M3 8.5l3.5 3.5 6.5-8'] },
  warning: { paths: ['M8 2l6.5 11.5h-13z', 'M8 6.5v3.5', 'M8 11.5v.5'] },
  tools: { paths: ['M9.5 2.5a3 3 0 0 0-2.8 4.1L2.5 10.8a1.2 1.2 0 0 0 1.7 1.7l4.2-4.2a3 3 0 0 0 4.1-2.8l-1.8 1.8-1.7-.4-.4-1.7z'] },
} satisfies Record<string, Shape>;

/** The names of the available icons. */
export type IconName = keyof typeof shapes;

/** An SVG icon, hidden from assistive technology (the control it sits in carries the label). */
export function icon(name: IconName): SVGSVGElement {
  const shape: Shape = shapes[name];
  const svg = document.createElementNS(svgNs, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', `icon icon-${name}${shape.filled ? ' filled' : ''}`);
  for (const d of shape.paths ?? []) {
    const path = document.createElementNS(svgNs, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  for (const [x, y, width, height] of shape.rects ?? []) {
    const rect = document.createElementNS(svgNs, 'rect');
    rect.setAttribute('x', String(x));
    rect.setAttribute('y', String(y));
    rect.setAttribute('width', String(width));
    rect.setAttribute('height', String(height));
    rect.setAttribute('rx', '1');
    svg.append(rect);
  }
  for (const [cx, cy, r] of shape.circles ?? []) {
    const circle = document.createElementNS(svgNs, 'circle');
    circle.setAttribute('cx', String(cx));
    circle.setAttribute('cy', String(cy));
    circle.setAttribute('r', String(r));
    svg.append(circle);
  }
  return svg;
}
