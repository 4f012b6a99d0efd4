import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { systemClock } from '../core/clock';
import { migrateToLatest, openDatabase } from '../core/db/database';
import { createContext } from '../create-context';
import { DEFAULT_ROLE } from '../permissions/permissions';
import { backupCommand, restoreCommand } from './backup-commands';
import {
  auditRekeyCommand,
  configCommand,
  createUserCommand,
  migrateCommand,
  PIN_VARIABLE,
  resetPinCommand,
  setWalletPasswordCommand,
  WALLET_PASSWORD_VARIABLE,
} from './commands';
import { keysExportCommand } from './keys-export';

const HELP = `Administration of the restaurant POS: npm run pos -- <command> [options]

Commands:
  create-user --name <name> [--role <role>]        create a user; roles: waiter, cashier, kitchen,
                                                   manager, admin, staff (the default), or one of yours
  backup --to <file>                               copy the live SQLite database (the server may keep
                                                   running), check the copy, print where it is
  restore --from <file>                            put a backup in place of the SQLite database; refused
                                                   while a server has it open; keeps the replaced file
  reset-pin --name <name>                          give a user a new PIN; ends all of their sessions
  set-wallet-password --name <name>                set or reset an admin's wallet password
  config                                           show the effective configuration, secrets masked
  migrate                                          apply pending database migrations
  audit-rekey                                      move an audit log from before the audit key (no
                                                   signed head) to the keyed chain; once per database
  keys-export --to <folder>                        write the PIN key and session key this database
                                                   keeps to pin-key and jwt-secret in a new private
                                                   folder, for POS_PIN_KEY_FILE and POS_JWT_SECRET_FILE
  help                                             this text (also --help)

PINs come from ${PIN_VARIABLE}, wallet passwords from ${WALLET_PASSWORD_VARIABLE}; when those are unset
they are read from standard input (typed without echo at a terminal, or piped). Never put them on the
command line. Run it with the server's environment (DATABASE_URL, POS_PIN_KEY, ...): PINs are hashed
with the PIN key, and data commands migrate the database first, as the server does at start-up.

Exit codes: 0 done, 1 refused or failed (the reason on one line), 2 wrong usage.
`;

class UsageError extends Error {}

type Options = {
  name?: string | undefined;
  role?: string | undefined;
  pin?: string | undefined;
  to?: string | undefined;
  from?: string | undefined;
};

function parse(argv: string[]): { command: string | undefined; options: Options; help: boolean } {
  try {
    const { positionals, values } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        role: { type: 'string' },
        pin: { type: 'string' },
        to: { type: 'string' },
        from: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (positionals.length > 1) throw new UsageError(`Unexpected argument "${positionals[1]}"`);
    return { command: positionals[0], options: values, help: values.help === true };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0] : String(error));
  }
}

function requiredName(options: Options): string {
  if (options.name === undefined) throw new UsageError('--name is required');
  return options.name;
}

/** Any role's name: the users service refuses one that does not exist, as `POST /users` does. */
function roleOf(options: Options): string {
  const role = options.role?.trim() ?? DEFAULT_ROLE;
  if (role === '') throw new UsageError('--role needs a role name');
  return role;
}

const DATA_COMMANDS = new Set(['create-user', 'reset-pin', 'set-wallet-password']);

async function run(argv: string[]): Promise<string> {
  const { command, options, help } = parse(argv);
  if (help || command === 'help') return HELP;
  if (command === undefined) throw new UsageError('A command is required');
  if (options.pin !== undefined) {
    throw new UsageError(
      `Do not put a PIN on the command line; set ${PIN_VARIABLE} or type it on standard input`,
    );
  }
  if (command === 'config') return configCommand(loadConfig());
  if (command === 'backup') {
    if (options.to === undefined) throw new UsageError('--to <file> is required');
    return backupCommand(loadConfig(), options.to);
  }
  if (command === 'restore') {
    if (options.from === undefined) throw new UsageError('--from <file> is required');
    return restoreCommand(loadConfig(), options.from);
  }
  if (command === 'keys-export') {
    if (options.to === undefined) throw new UsageError('--to <folder> is required');
    return keysExportCommand(loadConfig(), options.to);
  }
  const isWholeDatabase = command === 'migrate' || command === 'audit-rekey';
  if (!isWholeDatabase && !DATA_COMMANDS.has(command)) throw new UsageError(`Unknown command "${command}"`);
  const name = isWholeDatabase ? '' : requiredName(options);
  const role = roleOf(options);

  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  try {
    if (command === 'migrate') return await migrateCommand(database);
    await migrateToLatest(database.db);
    const ctx = await createContext(config, database, systemClock);
    if (command === 'audit-rekey') return await auditRekeyCommand(ctx);
    if (command === 'create-user') return await createUserCommand(ctx, { name, role });
    if (command === 'reset-pin') return await resetPinCommand(ctx, { name });
    return await setWalletPasswordCommand(ctx, { name });
  } finally {
    await database.close();
  }
}

function oneLine(error: unknown): string {
  if (error instanceof ConfigError) return `Invalid configuration: ${error.problems.join('; ')}`;
  return error instanceof Error ? error.message.split('\n')[0] || error.name : String(error);
}

run(process.argv.slice(2)).then(
  (output) => {
    process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
  },
  (error: unknown) => {
    const isUsage = error instanceof UsageError;
    process.stderr.write(`error: ${oneLine(error)}${isUsage ? ' (see npm run pos -- --help)' : ''}\n`);
    process.exitCode = isUsage ? 2 : 1;
  },
);
