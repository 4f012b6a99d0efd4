import { render } from 'preact';
import { App } from './app';
import './styles.css';

render(<App />, document.getElementById('app') as HTMLElement);

// Service workers run only in secure contexts (HTTPS or localhost); on a plain-HTTP LAN address the
// app still works, without the offline shell.
if ('serviceWorker' in navigator) {
  void navigator.serviceWorker.register('/app/service-worker.js', { scope: '/app/' }).catch(() => undefined);
}
