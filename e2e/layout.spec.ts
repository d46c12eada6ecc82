// No broken layout: every view, at a wide and a small window, in the light and the dark
// scheme, is scrolled past its end and back with the wheel (over the view and over each
// scrolling region in it) and with the keyboard (End, PageDown, Home, Space). The app shell
// must not move, the page itself must never be scrollable, and no part of the window may be
// left blank (every point of a grid hits an element inside the shell).
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import type { E2EContext } from './harness/types';
import { VIEWS } from './harness/views';

interface Frame {
  scrollTop: number;
  scrollLeft: number;
  pageHeight: number;
  pageWidth: number;
  shell: string;
  sidebar: string;
  topbar: string;
  /** Grid points that hit nothing inside the shell. */
  blank: string[];
}

function measure(page: Page): Promise<Frame> {
  return page.evaluate(() => {
    // No named functions in here: tsx would wrap them in a helper the page does not have.
    const boxes = ['.shell', '.sidebar', '.topbar'].map((sel) => {
      const r = document.querySelector(sel)?.getBoundingClientRect();
      return r
        ? `${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)}`
        : 'none';
    });
    const shell = document.querySelector('.shell');
    const blank: string[] = [];
    const w = window.innerWidth;
    const h = window.innerHeight;
    for (let i = 0; i < 8; i++)
      for (let j = 0; j < 8; j++) {
        const x = Math.round(((i + 0.5) * w) / 8);
        const y = Math.round(((j + 0.5) * h) / 8);
        const el = document.elementFromPoint(x, y);
        if (!el || !shell?.contains(el))
          blank.push(`${x},${y}:${el?.tagName.toLowerCase() ?? 'nothing'}`);
      }
    const root = document.scrollingElement as HTMLElement;
    return {
      scrollTop: root.scrollTop,
      scrollLeft: root.scrollLeft,
      pageHeight: root.scrollHeight - window.innerHeight,
      pageWidth: root.scrollWidth - window.innerWidth,
      shell: boxes[0] as string,
      sidebar: boxes[1] as string,
      topbar: boxes[2] as string,
      blank,
    };
  });
}

/** Centres of the scrolling regions inside the content (the view itself first). */
function scrollers(page: Page): Promise<{ x: number; y: number; what: string }[]> {
  return page.evaluate(() => {
    const out: { x: number; y: number; what: string }[] = [];
    const content = document.querySelector('.content') as HTMLElement;
    const all = [content, ...Array.from(content.querySelectorAll<HTMLElement>('*'))];
    for (const el of all) {
      const style = getComputedStyle(el);
      if (!/(auto|scroll)/.test(style.overflowY) || el.scrollHeight <= el.clientHeight + 1) {
        if (el !== content) continue;
      }
      const r = el.getBoundingClientRect();
      if (r.width < 40 || r.height < 40) continue;
      const x = Math.min(Math.max(r.x + r.width / 2, 1), window.innerWidth - 2);
      const y = Math.min(Math.max(r.y + r.height / 2, 1), window.innerHeight - 2);
      out.push({
        x,
        y,
        what: el === content ? 'the view' : `.${Array.from(el.classList).join('.') || el.tagName}`,
      });
      if (out.length >= 4) break;
    }
    return out;
  });
}

async function frames(page: Page, n = 2) {
  for (let i = 0; i < n; i++)
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r(null))));
}

async function scrollEveryView(
  t: E2EContext,
  size: { width: number; height: number },
  scheme: 'light' | 'dark',
) {
  const { page } = t;
  await page.setViewportSize(size);
  await page.emulateMedia({ colorScheme: scheme });
  await t.open('/overview');
  const problems: string[] = [];
  let baseline: Frame | null = null;
  for (const [id, title] of VIEWS) {
    await page.evaluate((route) => {
      window.location.hash = route;
    }, `#/${id}`);
    await page.getByRole('heading', { name: title, level: 1, exact: true }).waitFor();
    // Whatever the view loads first (lists, charts) has had time to lay out.
    await page.waitForTimeout(300);
    await frames(page);
    const start = await measure(page);
    if (!baseline) {
      baseline = start;
      // A small window keeps the navigation to its icons, each still named.
      if (size.width <= 900) {
        const width = Number(/ (\d+)×/.exec(start.sidebar)?.[1]);
        assert.ok(
          width <= 64,
          `at ${size.width} px the sidebar should collapse; it is ${width} px`,
        );
        await page.getByRole('link', { name: 'Audit', exact: true }).waitFor();
      }
    }
    const check = (when: string, f: Frame) => {
      const where = `${id} (${size.width}×${size.height}, ${scheme}) ${when}`;
      if (f.scrollTop || f.scrollLeft)
        problems.push(`${where}: the page scrolled by ${f.scrollLeft},${f.scrollTop}`);
      if (f.pageHeight > 0 || f.pageWidth > 0)
        problems.push(
          `${where}: the page is ${f.pageWidth}×${f.pageHeight} px larger than the window`,
        );
      if (
        f.shell !== baseline!.shell ||
        f.sidebar !== baseline!.sidebar ||
        f.topbar !== baseline!.topbar
      )
        problems.push(
          `${where}: the shell moved (shell ${f.shell}, sidebar ${f.sidebar}, top bar ${f.topbar}; was ${baseline!.shell}, ${baseline!.sidebar}, ${baseline!.topbar})`,
        );
      if (f.blank.length) problems.push(`${where}: blank at ${f.blank.slice(0, 4).join(' ')}`);
    };
    check('when opened', start);
    for (const s of await scrollers(page)) {
      await page.mouse.move(s.x, s.y);
      for (let i = 0; i < 6; i++) await page.mouse.wheel(0, 1500);
      await frames(page);
      check(`after the wheel down over ${s.what}`, await measure(page));
      for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -1500);
      await frames(page);
      check(`after the wheel up over ${s.what}`, await measure(page));
    }
    await page.locator('#main').focus();
    for (const key of ['End', 'PageDown', 'Space', 'ArrowDown', 'Home', 'PageUp']) {
      await page.keyboard.press(key);
      await frames(page);
      check(`after ${key}`, await measure(page));
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  assert.deepEqual(problems, [], `layout problems:\n  ${problems.join('\n  ')}`);
}

export async function wideLightWindowScrollsWithoutShiftOrBlank(t: E2EContext) {
  await scrollEveryView(t, { width: 1440, height: 900 }, 'light');
}

export async function wideDarkWindowScrollsWithoutShiftOrBlank(t: E2EContext) {
  await scrollEveryView(t, { width: 1440, height: 900 }, 'dark');
}

export async function smallLightWindowScrollsWithoutShiftOrBlank(t: E2EContext) {
  await scrollEveryView(t, { width: 800, height: 700 }, 'light');
}

export async function smallDarkWindowScrollsWithoutShiftOrBlank(t: E2EContext) {
  await scrollEveryView(t, { width: 800, height: 700 }, 'dark');
}

export async function aScreenTallerThanTheWindowScrollsItself(t: E2EContext) {
  // The connect screen in a short window: the document never scrolls, the screen does, and
  // its last control can be reached.
  await t.page.setViewportSize({ width: 800, height: 420 });
  await t.page.goto(`${t.baseUrl}/`);
  await t.page.getByRole('heading', { name: 'Connect to Loci' }).waitFor();
  const button = t.page.getByRole('button', { name: 'Connect' });
  await t.page.mouse.move(400, 200);
  await t.page.mouse.wheel(0, 2000);
  await frames(t.page, 3);
  const box = await button.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 420, `the Connect button is at ${box?.y}`);
  const f = await measure(t.page);
  assert.equal(f.scrollTop, 0, 'the document itself scrolled');
}
