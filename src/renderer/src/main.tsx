// The observatory's entry: takes the token from the address (and cleans the address),
// creates the engine client (the Electron bridge when present, HTTP otherwise) and
// renders the app.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { createEngineClient } from './lib/engineClient';
import { takeTokenFromLocation } from './lib/token';
import { useConnectionStore } from './stores/connectionStore';
import './styles/index.css';

useConnectionStore.getState().setToken(window.loci ? null : takeTokenFromLocation(window));
if (!window.loci) {
  // A token link opened in a tab that is open already changes only the fragment: it is
  // taken (and the address cleaned) the same way, before the router reads the address.
  window.addEventListener('hashchange', () => {
    if (!/(^#|&)token=/.test(window.location.hash)) return;
    const token = takeTokenFromLocation(window);
    if (token !== useConnectionStore.getState().token)
      useConnectionStore.getState().setToken(token);
  });
}
const client = createEngineClient(() => useConnectionStore.getState().token);

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App client={client} />
  </StrictMode>,
);
