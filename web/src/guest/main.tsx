import { render } from 'preact';
import { GuestPage } from './GuestPage';
import './guest.css';

// The page's address is /g/{token}: the token is all it knows of the bill.
const token = decodeURIComponent(location.pathname.replace(/^\/g\//, '').split('/')[0] ?? '');

render(<GuestPage token={token} />, document.getElementById('guest') as HTMLElement);
