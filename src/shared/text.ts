// Plain-text rules that are part of the contract and needed on both sides (the engine's
// write gate and the observatory's editor), without zod, so the renderer can import them.

/**
 * A character a person would see: not whitespace, not a control or format character and
 * not a default-ignorable one (zero-width spaces, joiners, variation selectors, fillers).
 */
const VISIBLE = /[^\p{White_Space}\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;

/** True when the text holds at least one visible character. */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text);
}
