// The observatory's own state, apart from the engine's data: the theme, the store being
// looked at, transient notifications (toasts) and whether the command palette is open.
// Theme and store survive a reload (localStorage); nothing here is secret.
import { create } from 'zustand';
import type { StoreInfo } from '../../../shared/api';

export type Theme = 'system' | 'light' | 'dark';
export type ToastTone = 'info' | 'success' | 'error';

export interface ToastAction {
  label: string;
  /** Runs once; the toast closes when it is clicked. */
  run: () => void | Promise<void>;
}

export interface Toast {
  id: string;
  message: string;
  tone: ToastTone;
  action?: ToastAction;
  /** 0: stays until closed. */
  durationMs: number;
}

export interface ToastInput {
  message: string;
  tone?: ToastTone;
  /** An Undo (or other) action; such toasts stay longer by default. */
  action?: ToastAction;
  durationMs?: number;
}

export interface UiState {
  theme: Theme;
  setTheme(theme: Theme): void;

  stores: StoreInfo[];
  /** The store every view shows; null until the store list arrived. */
  store: string | null;
  setStores(stores: StoreInfo[]): void;
  setStore(name: string): void;

  toasts: Toast[];
  /** Shows a toast; returns its id. */
  toast(input: ToastInput): string;
  dismissToast(id: string): void;
  /** Hover and focus hold a toast open (WCAG 2.2.1): its timer stops, then resumes. */
  pauseToast(id: string): void;
  resumeToast(id: string): void;

  paletteOpen: boolean;
  setPaletteOpen(open: boolean): void;
}

export const TOAST_MS = 5_000;
export const TOAST_WITH_ACTION_MS = 10_000;
const MAX_TOASTS = 4;

const THEME_KEY = 'loci.theme';
const STORE_KEY = 'loci.store';

function load(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function save(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Preferences then last for this page only.
  }
}

const initialTheme = (): Theme => {
  const saved = load(THEME_KEY);
  return saved === 'light' || saved === 'dark' ? saved : 'system';
};

// Timers live outside the state: they are not data to render.
const timers = new Map<string, { handle: ReturnType<typeof setTimeout>; due: number }>();
const remaining = new Map<string, number>();
let nextId = 0;

export const useUiStore = create<UiState>()((set, get) => {
  const schedule = (id: string, ms: number) => {
    if (ms <= 0) return;
    timers.set(id, { handle: setTimeout(() => get().dismissToast(id), ms), due: Date.now() + ms });
  };
  const clear = (id: string) => {
    const t = timers.get(id);
    if (t) clearTimeout(t.handle);
    timers.delete(id);
  };

  return {
    theme: initialTheme(),
    setTheme(theme) {
      save(THEME_KEY, theme);
      set({ theme });
    },

    stores: [],
    store: null,
    setStores(stores) {
      const names = new Set(stores.map((s) => s.name));
      const current = get().store;
      const saved = load(STORE_KEY);
      const store =
        current && names.has(current)
          ? current
          : saved && names.has(saved)
            ? saved
            : (stores.find((s) => s.is_default)?.name ?? stores[0]?.name ?? null);
      set({ stores, store });
    },
    setStore(name) {
      save(STORE_KEY, name);
      set({ store: name });
    },

    toasts: [],
    toast(input) {
      const id = `t${++nextId}`;
      const durationMs = input.durationMs ?? (input.action ? TOAST_WITH_ACTION_MS : TOAST_MS);
      const toast: Toast = {
        id,
        message: input.message,
        tone: input.tone ?? 'info',
        durationMs,
        ...(input.action ? { action: input.action } : {}),
      };
      const kept = get().toasts.slice(-(MAX_TOASTS - 1));
      for (const old of get().toasts) if (!kept.includes(old)) clear(old.id);
      set({ toasts: [...kept, toast] });
      schedule(id, durationMs);
      return id;
    },
    dismissToast(id) {
      clear(id);
      remaining.delete(id);
      set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
    },
    pauseToast(id) {
      const t = timers.get(id);
      if (!t) return;
      remaining.set(id, Math.max(0, t.due - Date.now()));
      clear(id);
    },
    resumeToast(id) {
      const left = remaining.get(id);
      if (left === undefined) return;
      remaining.delete(id);
      // A moment to read it again after the pointer leaves.
      schedule(id, Math.max(left, 1_500));
    },

    paletteOpen: false,
    setPaletteOpen(open) {
      set({ paletteOpen: open });
    },
  };
});
