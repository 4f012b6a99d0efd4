import { useEffect, useState } from 'preact/hooks';
import { api, type Ok, ok } from '../../api/client';
import { Alert } from '../../components/Alert';
import { LanguagePicker } from '../../components/Shell';
import { type Strings, useStrings } from '../../core/i18n';
import { messageOf } from '../../core/server-text';
import { logIn } from '../../core/session';

const strings: Strings<
  | 'title'
  | 'whoAreYou'
  | 'pin'
  | 'logIn'
  | 'back'
  | 'deleteDigit'
  | 'setupTitle'
  | 'setupIntro'
  | 'name'
  | 'walletPassword'
  | 'walletHelp'
  | 'country'
  | 'countryMexico'
  | 'countryOther'
  | 'countryMexicoHelp'
  | 'countryOtherHelp'
  | 'create'
  | 'otherName'
  | 'language'
  | 'unreachable'
> = {
  en: {
    title: 'Restaurant POS',
    whoAreYou: 'Who are you?',
    pin: 'PIN',
    logIn: 'Log in',
    back: 'Back',
    deleteDigit: 'Delete the last digit',
    setupTitle: 'Set up the restaurant',
    setupIntro: 'Create the first administrator. You will use this name and PIN to log in.',
    name: 'Name',
    walletPassword: 'Wallet password',
    walletHelp: 'Protects the Lightning wallet. At least 8 characters.',
    country: 'Country',
    countryMexico: 'Mexico',
    countryOther: 'Another country',
    countryMexicoHelp:
      'Prices include 16% IVA, days and the cash-up follow Mexico City time, pesos (MXN), receipts in Spanish. You can change each in Settings.',
    countryOtherHelp: 'No tax and UTC time until you set them in Settings.',
    create: 'Create administrator',
    otherName: 'Name',
    language: 'Language',
    unreachable: 'The server cannot be reached.',
  },
  es: {
    title: 'Punto de venta del restaurante',
    whoAreYou: '¿Quién eres?',
    pin: 'PIN',
    logIn: 'Entrar',
    back: 'Volver',
    deleteDigit: 'Borrar el último dígito',
    setupTitle: 'Configurar el restaurante',
    setupIntro: 'Crea el primer administrador. Entrarás con este nombre y PIN.',
    name: 'Nombre',
    walletPassword: 'Contraseña de la billetera',
    walletHelp: 'Protege la billetera Lightning. Al menos 8 caracteres.',
    country: 'País',
    countryMexico: 'México',
    countryOther: 'Otro país',
    countryMexicoHelp:
      'Precios con IVA del 16 % incluido, días y corte con la hora de la Ciudad de México, pesos (MXN), tickets en español. Puedes cambiar cada cosa en Ajustes.',
    countryOtherHelp: 'Sin impuesto y con la hora UTC hasta que los configures en Ajustes.',
    create: 'Crear administrador',
    otherName: 'Nombre',
    language: 'Idioma',
    unreachable: 'No se puede contactar con el servidor.',
  },
};

type Staff = Ok<'/auth/staff', 'get'>[number];

const RETRY_MS = 3000;
const PIN_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '0'];

/** PIN login: tap your name, type your PIN. Before anyone exists, the first admin is created here. */
export function LoginScreen() {
  const t = useStrings(strings);
  const [initialized, setInitialized] = useState<boolean>();
  const [staff, setStaff] = useState<Staff[]>([]);
  const [chosen, setChosen] = useState<Staff>();
  const [error, setError] = useState<string>();

  const load = async () => {
    try {
      const status = await ok(api.GET('/initial-setup'));
      setInitialized(status.initialized);
      if (status.initialized) setStaff(await ok(api.GET('/auth/staff')));
      setError(undefined);
      return true;
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
      return false;
    }
  };
  useEffect(() => {
    // Opened while the server is out of reach (the offline shell): keep asking until it answers.
    let retry: ReturnType<typeof setTimeout> | undefined;
    const attempt = async () => {
      if (!(await load())) retry = setTimeout(attempt, RETRY_MS);
    };
    void attempt();
    return () => clearTimeout(retry);
  }, []);

  return (
    <main id="main" class="login">
      <div class="login-card">
        <div class="login-head">
          <h1>{t.title}</h1>
          <LanguagePicker label={t.language} />
        </div>
        <Alert message={error} />
        {initialized === false && <FirstAdminForm onCreated={() => void load()} />}
        {initialized && chosen === undefined && (
          <>
            <h2>{t.whoAreYou}</h2>
            <ul class="name-grid">
              {staff.map((member) => (
                <li key={member.name}>
                  <button type="button" class="tile" onClick={() => setChosen(member)}>
                    {member.name}
                  </button>
                </li>
              ))}
            </ul>
          </>
        )}
        {initialized && chosen !== undefined && (
          <PinForm name={chosen.name} pinLength={chosen.pin_length} onBack={() => setChosen(undefined)} />
        )}
      </div>
    </main>
  );
}

/**
 * A tap on the pad's last digit logs in at once, as a till's PIN pad does; typed PINs (and PINs
 * whose length the server does not know) still log in with the button or Enter.
 */
function PinForm({
  name,
  pinLength,
  onBack,
}: {
  name: string;
  pinLength: number | null;
  onBack: () => void;
}) {
  const t = useStrings(strings);
  const [pin, setPin] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const logInWith = async (typed: string) => {
    setBusy(true);
    try {
      await logIn(name, typed);
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
      setPin('');
      setBusy(false);
    }
  };
  const submit = (event: Event) => {
    event.preventDefault();
    void logInWith(pin);
  };
  const tap = (digit: string) => {
    if (busy) return;
    const typed = `${pin}${digit}`.slice(0, 12);
    setPin(typed);
    if (typed.length === pinLength) void logInWith(typed);
  };
  return (
    <form onSubmit={submit} class="pin-form">
      <h2>{name}</h2>
      <label for="pin">{t.pin}</label>
      <input
        id="pin"
        type="password"
        inputMode="numeric"
        autoComplete="current-password"
        pattern="[0-9]*"
        minLength={4}
        maxLength={12}
        required
        value={pin}
        onInput={(event) => setPin(event.currentTarget.value.replace(/\D/g, ''))}
      />
      <div class="pin-pad">
        {PIN_KEYS.map((digit) => (
          <button key={digit} type="button" class="key" onClick={() => tap(digit)}>
            {digit}
          </button>
        ))}
        <button
          type="button"
          class="key"
          aria-label={t.deleteDigit}
          disabled={pin.length === 0}
          onClick={() => setPin((value) => value.slice(0, -1))}
        >
          ⌫
        </button>
      </div>
      <Alert message={error} />
      <div class="actions">
        <button type="button" class="ghost" onClick={onBack}>
          {t.back}
        </button>
        <button type="submit" class="primary" disabled={busy || pin.length < 4}>
          {t.logIn}
        </button>
      </div>
    </form>
  );
}

function FirstAdminForm({ onCreated }: { onCreated: () => void }) {
  const t = useStrings(strings);
  const [name, setName] = useState('');
  const [pin, setPin] = useState('');
  const [walletPassword, setWalletPassword] = useState('');
  const [country, setCountry] = useState<'MX' | 'other'>('MX');
  const [error, setError] = useState<string>();

  const submit = async (event: Event) => {
    event.preventDefault();
    try {
      await ok(api.POST('/initial-setup', { body: { name, pin, wallet_password: walletPassword, country } }));
      await logIn(name, pin);
      onCreated();
    } catch (failure) {
      setError(messageOf(failure, t.unreachable));
    }
  };
  return (
    <form onSubmit={submit} class="stack">
      <h2>{t.setupTitle}</h2>
      <p>{t.setupIntro}</p>
      <label for="setup-name">{t.name}</label>
      <input
        id="setup-name"
        required
        maxLength={100}
        value={name}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <label for="setup-pin">{t.pin}</label>
      <input
        id="setup-pin"
        type="password"
        inputMode="numeric"
        autoComplete="new-password"
        minLength={4}
        maxLength={12}
        required
        value={pin}
        onInput={(e) => setPin(e.currentTarget.value.replace(/\D/g, ''))}
      />
      <label for="setup-wallet">{t.walletPassword}</label>
      <input
        id="setup-wallet"
        type="password"
        autoComplete="new-password"
        minLength={8}
        required
        aria-describedby="setup-wallet-help"
        value={walletPassword}
        onInput={(e) => setWalletPassword(e.currentTarget.value)}
      />
      <small id="setup-wallet-help">{t.walletHelp}</small>
      <label for="setup-country">{t.country}</label>
      <select
        id="setup-country"
        aria-describedby="setup-country-help"
        value={country}
        onChange={(e) => setCountry(e.currentTarget.value as 'MX' | 'other')}
      >
        <option value="MX">{t.countryMexico}</option>
        <option value="other">{t.countryOther}</option>
      </select>
      <small id="setup-country-help">{country === 'MX' ? t.countryMexicoHelp : t.countryOtherHelp}</small>
      <Alert message={error} />
      <button type="submit" class="primary">
        {t.create}
      </button>
    </form>
  );
}
