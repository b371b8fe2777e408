/* global window, document, getComputedStyle, Node -- the page.evaluate callbacks run in the browser */
// What a person sees in the chat panel, measured in the page: text contrast (WCAG 2.2 1.4.3), a visible
// focus indicator on every control reached with Tab (2.4.7, its colour against what is around it 1.4.11),
// and no horizontal overflow at a narrow side bar (1.4.10). Each function takes a playwright page and
// returns a list of problems (empty: the check passed), each naming the element, so a failure says where.

/** Puts the measuring helpers into the page (window.__visibleHelpers), once per page. */
async function installHelpers(page) {
  await page.evaluate(() => {
    if (window.__visibleHelpers) return;
    const parse = (value) => {
      let match = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(value);
      if (match) return [Number(match[1]), Number(match[2]), Number(match[3]), match[4] === undefined ? 1 : Number(match[4])];
      match = /^color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)$/.exec(value);
      if (match) return [Number(match[1]) * 255, Number(match[2]) * 255, Number(match[3]) * 255, match[4] === undefined ? 1 : Number(match[4])];
      return undefined;
    };
    const over = (top, bottom) => {
      const alpha = top[3] + bottom[3] * (1 - top[3]);
      if (alpha === 0) return [0, 0, 0, 0];
      return [0, 1, 2].map((index) => (top[index] * top[3] + bottom[index] * bottom[3] * (1 - top[3])) / alpha).concat(alpha);
    };
    const luminance = ([r, g, b]) => {
      const channel = (value) => {
        const c = value / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const ratio = (a, b) => {
      const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (light + 0.05) / (dark + 0.05);
    };
    /** The opaque colour behind `element`: its own and its ancestors' backgrounds, composited over white. */
    const backdrop = (element) => {
      const layers = [];
      for (let node = element; node && node.nodeType === Node.ELEMENT_NODE; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.backgroundImage !== 'none' && !node.matches('html, body')) return undefined;
        const colour = parse(style.backgroundColor);
        if (colour && colour[3] > 0) layers.push(colour);
        if (colour && colour[3] === 1) break;
      }
      return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1]);
    };
    /** The product of the opacities of `element` and its ancestors (what the eye gets of its colours). */
    const opacity = (element) => {
      let product = 1;
      for (let node = element; node && node.nodeType === Node.ELEMENT_NODE; node = node.parentElement) product *= Number(getComputedStyle(node).opacity);
      return product;
    };
    const describe = (element) => {
      const name = element.getAttribute('aria-label') ?? element.getAttribute('title') ?? '';
      const classes = typeof element.className === 'string' && element.className ? `.${element.className.trim().split(/\s+/).join('.')}` : '';
      return `${element.tagName.toLowerCase()}${classes}${name ? ` "${name.slice(0, 40)}"` : ''}`;
    };
    const visible = (element) => {
      const rect = element.getBoundingClientRect();
      if (rect.width < 1 || rect.height < 1) return false;
      const style = getComputedStyle(element);
      if (style.visibility !== 'visible' || style.display === 'none') return false;
      // Visually hidden text for screen readers (clipped to a pixel) is not seen.
      if (style.clipPath === 'inset(50%)' || style.clip === 'rect(0px, 0px, 0px, 0px)' || (rect.width <= 1 && rect.height <= 1)) return false;
      return !element.closest('[hidden]');
    };
    window.__visibleHelpers = { parse, over, ratio, backdrop, opacity, describe, visible };
  });
}

/**
 * The WCAG contrast problems of every visible text in the page: the text colour (with the opacity of it
 * and its ancestors) over the backgrounds composited beneath it, against 4.5:1 (3:1 for large text: 24 px,
 * or 18.66 px bold). Disabled controls are exempt (WCAG: inactive user interface components), as is
 * decoration (text without a letter or digit) and text over a background image (not measurable from
 * styles; the panel has none). Returns { problems, measured,
 * worst }.
 */
export async function contrastProblems(page) {
  await installHelpers(page);
  return page.evaluate(() => {
    const helpers = window.__visibleHelpers;
    const { parse, over, ratio, backdrop, opacity, describe, visible } = helpers;
    const problems = [];
    let measured = 0;
    let worst = Infinity;
    const seen = new Set();
    const walker = document.createTreeWalker(document.body, window.NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode(); text; text = walker.nextNode()) {
      // Text with no letter or digit (a "·" between figures, a bullet) is decoration, which WCAG exempts.
      if (!/[\p{L}\p{N}]/u.test(text.textContent)) continue;
      const element = text.parentElement;
      if (!element || seen.has(element) || element.closest('script, style, option')) continue;
      seen.add(element);
      if (!visible(element)) continue;
      if (element.closest(':disabled, [aria-disabled="true"]')) continue;
      const style = getComputedStyle(element);
      const colour = parse(style.color);
      const behind = backdrop(element);
      if (!colour || !behind) continue;
      const shown = over([colour[0], colour[1], colour[2], colour[3] * opacity(element)], behind);
      const value = ratio(shown, behind);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      const needed = large ? 3 : 4.5;
      measured += 1;
      worst = Math.min(worst, value);
      if (value < needed - 0.005) {
        problems.push(
          `${describe(element)} "${text.textContent.trim().slice(0, 30)}": ${value.toFixed(2)}:1 < ${needed}:1 (${style.color} over rgb(${behind.slice(0, 3).map(Math.round).join(', ')}))`,
        );
      }
    }
    return { problems, measured, worst: Number.isFinite(worst) ? Number(worst.toFixed(2)) : undefined };
  });
}

/**
 * Presses Tab through the page (up to `maxStops` times, until focus comes round again) and checks each
 * focused control for a visible indicator: an outline (or box-shadow) in the theme's focus colour or in
 * one with at least 3:1 against the background around it, or, for a box that draws the ring on its
 * container (the composer), a border of an ancestor that turns to such a colour on focus. Returns
 * { problems, stops }.
 */
export async function focusProblems(page, maxStops = 80) {
  await installHelpers(page);
  const problems = [];
  const stops = [];
  await page.evaluate(() => document.activeElement instanceof window.HTMLElement && document.activeElement.blur());
  await page
    .locator('body')
    .click({ position: { x: 1, y: 1 } })
    .catch(() => undefined);
  for (let index = 0; index < maxStops; index += 1) {
    await page.keyboard.press('Tab');
    const result = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element || element === document.body) return { done: true };
      if (!element.dataset.focusStop) element.dataset.focusStop = String(Object.keys((window.__focusStops ??= {})).length);
      const stop = element.dataset.focusStop;
      if (window.__focusStops[stop]) return { done: true };
      window.__focusStops[stop] = true;
      const { parse, ratio, backdrop, describe } = window.__visibleHelpers;
      const ring = (node) => {
        const style = getComputedStyle(node);
        return {
          outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1 ? style.outlineColor : undefined,
          shadow: style.boxShadow !== 'none' ? style.boxShadow : undefined,
          borders: [style.borderTopColor, style.borderRightColor, style.borderBottomColor, style.borderLeftColor].join('|'),
          borderWidth: parseFloat(style.borderTopWidth) + parseFloat(style.borderLeftWidth),
        };
      };
      const chain = [];
      for (let node = element; node && chain.length < 4 && node !== document.body; node = node.parentElement) chain.push(node);
      const focused = chain.map(ring);
      // The same styles without focus: blur, read, and focus again (by script; the keyboard modality stays).
      element.blur();
      const unfocused = chain.map(ring);
      element.focus();
      const around = backdrop(element.parentElement ?? element);
      // The theme's own focus colour counts whatever its contrast: that colour is the theme's choice (VS Code
      // draws its own focus rings in it), the panel's part is to draw the ring, in that colour.
      const probe = document.createElement('span');
      probe.style.color = 'var(--vscode-focusBorder)';
      document.body.append(probe);
      const themeFocus = getComputedStyle(probe).color;
      probe.remove();
      const enough = (colour) => {
        const parsed = parse(colour);
        return parsed && parsed[3] > 0.5 && (colour === themeFocus || ratio(parsed, around) >= 3);
      };
      let indicator;
      if (focused[0].outline && enough(focused[0].outline)) indicator = `outline ${focused[0].outline}`;
      else if (focused[0].shadow && focused[0].shadow !== unfocused[0].shadow) indicator = `box-shadow ${focused[0].shadow}`;
      else {
        for (const [at, styles] of focused.entries()) {
          if (styles.borderWidth >= 1 && styles.borders !== unfocused[at].borders && styles.borders.split('|').some(enough)) {
            indicator = `border of ${describe(chain[at])}`;
            break;
          }
        }
      }
      return { done: false, name: describe(element), indicator, outline: focused[0].outline };
    });
    if (result.done) break;
    stops.push(result.name);
    if (!result.indicator)
      problems.push(`${result.name}: no visible focus indicator${result.outline ? ` (outline ${result.outline} has under 3:1 against its background)` : ''}`);
  }
  return { problems, stops };
}

/**
 * Horizontal overflow at the page's width: the document must not scroll sideways, and no visible element
 * may reach past the right edge, or past the edge of a box that clips it, unless that box scrolls or cuts
 * text with an ellipsis on purpose (a code block, a long conversation name). Returns { problems }.
 */
export async function overflowProblems(page) {
  await installHelpers(page);
  return page.evaluate(() => {
    const problems = [];
    const width = document.documentElement.clientWidth;
    const scrollWidth = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
    if (scrollWidth > width + 1) problems.push(`the page scrolls sideways: ${scrollWidth} px of content in ${width} px`);
    const { describe, visible } = window.__visibleHelpers;
    for (const element of document.body.querySelectorAll('*')) {
      if (!visible(element)) continue;
      const rect = element.getBoundingClientRect();
      // The nearest box that clips: code and tables may scroll sideways (preformatted text cannot wrap); a
      // box that cuts text with an ellipsis does so on purpose; any other box, scrolling or clipping, hides
      // what runs past its edge (a side bar that needs a sideways scroll to reach Send is overflowing).
      let limit = width;
      let reachable = false;
      for (let node = element.parentElement; node && node !== document.body; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.overflowX === 'visible') continue;
        const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
        if ((scrolls && node.matches('pre, table')) || style.textOverflow === 'ellipsis') reachable = true;
        else limit = Math.min(width, node.getBoundingClientRect().right);
        break;
      }
      if (reachable || rect.right <= limit + 1) continue;
      problems.push(`${describe(element)} reaches ${Math.round(rect.right)} px, past the ${Math.round(limit)} px edge it is cut at (a ${width} px panel)`);
    }
    return { problems: problems.slice(0, 12) };
  });
}
