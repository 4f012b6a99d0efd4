import { useEffect } from 'preact/hooks';
import { ErrorBoundary, LocationProvider, lazy, Route, Router, useLocation } from 'preact-iso';
import { serverReachable } from './api/client';
import { useStore } from './api/store';
import { Shell } from './components/Shell';
import { type Strings, useStrings } from './core/i18n';
import { currentUser, loadSession } from './core/session';
import { LoginScreen } from './screens/login/LoginScreen';

// Each screen is its own file, fetched the first time it is opened: the login screen loads alone.
const FloorScreen = lazy(() => import('./screens/floor/FloorScreen'));
const OrderScreen = lazy(() => import('./screens/order/OrderScreen'));
const KitchenScreen = lazy(() => import('./screens/kitchen/KitchenScreen'));
const TillScreen = lazy(() => import('./screens/till/TillScreen'));
const ManagerScreen = lazy(() => import('./screens/manager/ManagerScreen'));
const DisplayScreen = lazy(() => import('./screens/display/DisplayScreen'));
const DeliveryScreen = lazy(() => import('./screens/delivery/DeliveryScreen'));

export function App() {
  return (
    <LocationProvider scope="/app">
      <Session />
    </LocationProvider>
  );
}

function Session() {
  const user = useStore(currentUser);
  const { route } = useLocation();
  useEffect(() => {
    void loadSession().catch(() => currentUser.set(null));
  }, []);
  // Whoever logs in next (after a logout, an expired session, or on a new device) starts on their
  // role's screen, never on the one the previous user left open: the address goes home while the
  // login screen shows. A resumed session (a reload) stays where it was.
  useEffect(() => {
    if (user === null) route('/app/', true);
  }, [user, route]);
  if (user === undefined) return <Connecting />;
  if (user === null) return <LoginScreen />;
  return (
    <Shell>
      <ErrorBoundary>
        <Router>
          <Route path="/app/floor" component={FloorScreen} />
          <Route path="/app/orders/:id" component={OrderScreen} />
          <Route path="/app/kitchen" component={KitchenScreen} />
          <Route path="/app/till" component={TillScreen} />
          <Route path="/app/till/:orderId" component={TillScreen} />
          <Route path="/app/manager" component={ManagerScreen} />
          <Route path="/app/manager/:section" component={ManagerScreen} />
          <Route path="/app/display" component={DisplayScreen} />
          <Route path="/app/delivery" component={DeliveryScreen} />
          <Route default component={Home} />
        </Router>
      </ErrorBoundary>
    </Shell>
  );
}

const connectingStrings: Strings<'unreachable'> = {
  en: { unreachable: 'The server cannot be reached. Trying again…' },
  es: { unreachable: 'No se puede contactar con el servidor. Reintentando…' },
};

/** While the app resumes a session; says so when the server is out of reach. */
function Connecting() {
  const t = useStrings(connectingStrings);
  const reachable = useStore(serverReachable);
  return (
    <main id="main" class="loading">
      {!reachable && (
        <p class="banner-offline" role="alert">
          {t.unreachable}
        </p>
      )}
    </main>
  );
}

/**
 * Each role's own screen: the cooks' kitchen, the cashier's till, the manager's dashboard (the night at a
 * glance); waiters and admins land on the floor, where a service is watched.
 */
const HOME_OF_ROLE: Record<string, string> = {
  manager: '/app/manager/dashboard',
  kitchen: '/app/kitchen',
  cook: '/app/kitchen',
  cashier: '/app/till',
  display: '/app/display',
};

/** The first screen after login: the role's own screen, the floor for the rest. */
function Home() {
  const user = useStore(currentUser);
  const { route } = useLocation();
  useEffect(() => {
    route((user && HOME_OF_ROLE[user.role]) ?? '/app/floor', true);
  }, [user, route]);
  return null;
}
