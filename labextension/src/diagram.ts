/**
 * The path diagram: Graphviz's SVG fitted to the panel's width, with zoom (buttons, Ctrl-wheel,
 * + − 0 keys) and pan (drag, arrow keys) done on its viewBox. Colours come from the theme
 * through style/index.css, which overrides the black-on-white of the SVG's attributes.
 */
import { ViewBox, fitView, zoomView } from './view';

const MIN_HEIGHT = 120;
const MAX_HEIGHT = 360;
const STEP = 1.5;

function button(label: string, title: string, onClick: () => void): HTMLButtonElement {
  const node = document.createElement('button');
  node.className = 'jp-CodeTrace-diagram-button jp-mod-styled';
  node.textContent = label;
  node.title = title;
  node.setAttribute('aria-label', title);
  node.addEventListener('click', onClick);
  return node;
}

/** Elements an SVG drawing never needs and a hostile one could run code or load content with. */
const UNSAFE_ELEMENTS = 'script, foreignObject, iframe, object, embed, use, image, animate, set';

/**
 * The drawing in `svgText` as a detached SVG element, parsed as XML (never as HTML into the page)
 * and stripped of scripts, event handlers and links that leave the drawing: names from the
 * repository flow into Graphviz's labels, and nothing in them may run.
 */
export function safeSvg(svgText: string): SVGSVGElement | null {
  const parsed = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const root = parsed.documentElement;
  if (!root || root.nodeName !== 'svg' || parsed.querySelector('parsererror')) {
    return null;
  }
  root.querySelectorAll(UNSAFE_ELEMENTS).forEach(node => node.remove());
  for (const node of [root, ...Array.from(root.querySelectorAll('*'))]) {
    for (const attribute of Array.from(node.attributes)) {
      const name = attribute.name.toLowerCase();
      const value = attribute.value.trim().toLowerCase();
      const link = name === 'href' || name.endsWith(':href');
      if (name.startsWith('on') || (link && !value.startsWith('#')) || value.startsWith('javascript:')) {
        node.removeAttribute(attribute.name);
      }
    }
  }
  return document.importNode(root, true) as unknown as SVGSVGElement;
}

/** Replace `box`'s content with the diagram `svgText` and its zoom controls. */
export function showDiagram(box: HTMLElement, svgText: string): void {
  const svg = safeSvg(svgText);
  box.replaceChildren();
  if (!svg) {
    box.textContent = 'The diagram could not be drawn.';
    return;
  }
  box.append(svg);
  const base = svg.viewBox.baseVal;
  const drawing: ViewBox = base && base.width > 0
    ? { x: base.x, y: base.y, width: base.width, height: base.height }
    : { x: 0, y: 0, width: svg.width.baseVal.value || 100, height: svg.height.baseVal.value || 100 };
  // Graphviz sizes the SVG in points (1,570 pt wide in a 232 px box): the box decides instead.
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
  svg.setAttribute('role', 'img');
  box.replaceChildren();

  const canvas = document.createElement('div');
  canvas.className = 'jp-CodeTrace-diagram-canvas';
  canvas.append(svg);
  let fit = drawing;
  let view = drawing;
  const apply = () => {
    svg.setAttribute('viewBox', `${view.x} ${view.y} ${view.width} ${view.height}`);
    canvas.dataset.zoom = (fit.width / view.width).toFixed(2);
  };
  const refit = () => {
    const width = canvas.clientWidth || box.clientWidth;
    const height = Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, (width * drawing.height) / drawing.width));
    canvas.style.height = `${height}px`;
    fit = fitView(drawing, width, height);
    view = fit;
    apply();
  };
  const zoom = (factor: number, cx = view.x + view.width / 2, cy = view.y + view.height / 2) => {
    view = zoomView(view, factor, cx, cy, fit);
    apply();
  };
  const pan = (dx: number, dy: number) => {
    view = { ...view, x: view.x + dx, y: view.y + dy };
    apply();
  };
  /** Screen pixels to drawing units. */
  const unit = () => view.width / Math.max(canvas.clientWidth, 1);

  canvas.addEventListener('wheel', event => {
    if (!event.ctrlKey) {
      return; // a plain wheel scrolls the panel
    }
    event.preventDefault();
    const rect = canvas.getBoundingClientRect();
    const cx = view.x + (event.clientX - rect.left) * unit();
    const cy = view.y + (event.clientY - rect.top) * unit();
    zoom(event.deltaY < 0 ? STEP : 1 / STEP, cx, cy);
  });
  let drag: { x: number; y: number } | null = null;
  canvas.addEventListener('pointerdown', event => {
    drag = { x: event.clientX, y: event.clientY };
    canvas.setPointerCapture(event.pointerId);
    canvas.classList.add('jp-mod-dragging');
  });
  canvas.addEventListener('pointermove', event => {
    if (drag) {
      pan((drag.x - event.clientX) * unit(), (drag.y - event.clientY) * unit());
      drag = { x: event.clientX, y: event.clientY };
    }
  });
  const stop = () => {
    drag = null;
    canvas.classList.remove('jp-mod-dragging');
  };
  canvas.addEventListener('pointerup', stop);
  canvas.addEventListener('pointercancel', stop);
  box.addEventListener('keydown', event => {
    const step = 40 * unit();
    const keys: Record<string, () => void> = {
      '+': () => zoom(STEP),
      '=': () => zoom(STEP),
      '-': () => zoom(1 / STEP),
      '0': refit,
      ArrowLeft: () => pan(-step, 0),
      ArrowRight: () => pan(step, 0),
      ArrowUp: () => pan(0, -step),
      ArrowDown: () => pan(0, step)
    };
    if (keys[event.key]) {
      event.preventDefault();
      keys[event.key]();
    }
  });

  const tools = document.createElement('div');
  tools.className = 'jp-CodeTrace-diagram-tools';
  tools.append(
    button('+', 'Zoom in (+)', () => zoom(STEP)),
    button('−', 'Zoom out (−)', () => zoom(1 / STEP)),
    button('Fit', 'Fit the whole diagram (0)', refit)
  );
  const hint = document.createElement('span');
  hint.className = 'jp-CodeTrace-meta';
  hint.textContent = 'drag to pan';
  tools.append(hint);
  box.append(tools, canvas);
  refit();
}
