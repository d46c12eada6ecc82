// Files dropped on the window (anywhere) or chosen, waiting for the Ingest view to take
// them: the app shell's drop handler puts them here and opens the view, which starts the
// import. Only the latest offer is kept; a view that takes it clears it.
import { create } from 'zustand';
import type { PickedFiles } from '../lib/droppedFiles';

export interface DropOffer {
  id: number;
  /** Folders are still being walked when the offer is made. */
  files: Promise<PickedFiles>;
}

export interface DropState {
  offer: DropOffer | null;
  /** Hands files to the Ingest view. */
  put(files: Promise<PickedFiles>): void;
  /** The waiting offer, once: later calls get null. */
  take(): DropOffer | null;
}

let nextId = 0;

export const useDropStore = create<DropState>()((set, get) => ({
  offer: null,
  put(files) {
    set({ offer: { id: ++nextId, files } });
  },
  take() {
    const offer = get().offer;
    if (offer) set({ offer: null });
    return offer;
  },
}));
