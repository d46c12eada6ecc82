// Copies text for the user: the async Clipboard API where the page may use it (a secure
// context with focus), else the older execCommand('copy') on a hidden textarea, which
// works in more embedded browsers. Resolves false when neither worked.

function legacyCopy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  // Off screen and out of the accessibility tree for the instant it exists.
  area.style.position = 'fixed';
  area.style.top = '-1000px';
  area.style.opacity = '0';
  area.setAttribute('aria-hidden', 'true');
  const previous = document.activeElement as HTMLElement | null;
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  previous?.focus?.();
  return ok;
}

export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no focus, no permission, an insecure origin): try the old way.
  }
  return legacyCopy(text);
}
