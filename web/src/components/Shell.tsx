import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { pendingWrites, serverReachable } from '../api/client';
import { useStore } from '../api/store';
import { format, LANGUAGES, language, type Strings, useStrings } from '../core/i18n';
import { currentUser, logOut, mayManage } from '../core/session';

const strings: Strings<
  | 'floor'
  | 'kitchen'
  | 'till'
  | 'manager'
  | 'logOut'
  | 'language'
  | 'offline'
  | 'waiting'
  | 'navigation'
  | 'signedInAs'
> = {
  en: {
    floor: 'Floor',
    kitchen: 'Kitchen',
    till: 'Till',
    manager: 'Manager',
    logOut: 'Log out',
    language: 'Language',
    offline: 'The server cannot be reached. Changes are kept and sent again when it is back.',
    waiting: 'Changes waiting: {n}',
    navigation: 'Screens',
    signedInAs: 'Signed in as',
  },
  es: {
    floor: 'Sala',
    kitchen: 'Cocina',
    till: 'Caja',
    manager: 'Gerencia',
    logOut: 'Salir',
    language: 'Idioma',
    offline: 'No se puede contactar con el servidor. Los cambios se guardan y se reenvían al volver.',
    waiting: 'Cambios en espera: {n}',
    navigation: 'Pantallas',
    signedInAs: 'Sesión de',
  },
};

/** The frame of every screen after login: navigation, language, logout and the offline warning. */
export function Shell({ children }: { children: ComponentChildren }) {
  const t = useStrings(strings);
  const user = useStore(currentUser);
  const reachable = useStore(serverReachable);
  const waiting = useStore(pendingWrites);
  const { path } = useLocation();
  // From the session's permissions, never role names: a role is renamed or made in the staff screen.
  const permissions = user?.permissions ?? [];
  // A customer display faces the guest: it links to no staff screen.
  const isDisplay = permissions.includes('display.view') && !permissions.includes('orders.write');
  const links = [
    ...(isDisplay
      ? []
      : [
          { href: '/app/floor', label: t.floor },
          { href: '/app/kitchen', label: t.kitchen },
        ]),
    ...(permissions.includes('payments.take') ? [{ href: '/app/till', label: t.till }] : []),
    ...(user && mayManage(user) ? [{ href: '/app/manager', label: t.manager }] : []),
  ];
  const offline = !reachable && (
    <div class="banner-offline" role="alert">
      {t.offline}
      {waiting > 0 && ` ${format(t.waiting, { n: waiting })}`}
    </div>
  );
  // The guest at the counter sees only the display: no staff name, language or log-out bar.
  if (isDisplay) {
    return (
      <>
        {offline}
        <main id="main">{children}</main>
      </>
    );
  }
  return (
    <>
      <header class="topbar">
        <nav aria-label={t.navigation}>
          {links.map((link) => (
            <a
              key={link.href}
              href={link.href}
              aria-current={path.startsWith(link.href) ? 'page' : undefined}
            >
              {link.label}
            </a>
          ))}
        </nav>
        <div class="topbar-end">
          <span class="who">
            <span class="visually-hidden">{t.signedInAs} </span>
            {user?.name}
          </span>
          <LanguagePicker label={t.language} />
          <button type="button" class="ghost" onClick={() => void logOut()}>
            {t.logOut}
          </button>
        </div>
      </header>
      {offline}
      <main id="main">{children}</main>
    </>
  );
}

export function LanguagePicker({ label }: { label: string }) {
  const current = useStore(language);
  return (
    <select
      aria-label={label}
      value={current}
      onChange={(event) => language.set(event.currentTarget.value as 'en')}
    >
      {LANGUAGES.map((code) => (
        <option key={code} value={code}>
          {code === 'en' ? 'English' : 'Español'}
        </option>
      ))}
    </select>
  );
}
