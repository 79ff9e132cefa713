import { createInterface } from 'node:readline/promises';
import { CliError } from './errors.js';

// Passwords never come from the command line, where `ps` and shell history
// would keep them: they are typed at a hidden prompt or piped in on stdin.

/** A new password: from stdin with `fromStdin`, else typed twice at a hidden prompt. */
export async function readNewPassword(fromStdin: boolean): Promise<string> {
  if (fromStdin) return readStdinPassword();
  if (!process.stdin.isTTY) {
    throw CliError.of('required', 'no terminal to ask for the password: pipe it in with --password-stdin', 'password');
  }
  const password = await askHidden('New password: ');
  if ((await askHidden('Repeat it: ')) !== password) throw CliError.of('password_mismatch', 'the two passwords differ', 'password');
  if (password === '') throw CliError.of('required', 'the password is empty', 'password');
  return password;
}

/** The whole of stdin, less one line ending: a password may end in spaces. */
async function readStdinPassword(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const password = Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
  if (password === '') throw CliError.of('required', 'stdin held no password', 'password');
  return password;
}

function askHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(question);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (outcome: () => void) => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
      outcome();
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return finish(() => resolve(typed));
        // Ctrl-C, Ctrl-D
        if (char === '\u0003' || char === '\u0004') return finish(() => reject(CliError.of('cancelled', 'cancelled')));
        if (char === '\u007f' || char === '\b') typed = [...typed].slice(0, -1).join('');
        else typed += char;
      }
    };
    stdin.on('data', onData);
  });
}

/** Asks before something that cannot be undone; `--yes` answers for scripts. */
export async function confirm(question: string, yes: boolean): Promise<void> {
  if (yes) return;
  if (!process.stdin.isTTY) throw CliError.of('confirmation_required', `${question} Pass --yes to confirm without a terminal`);
  const readline = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await readline.question(`${question} [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw CliError.of('cancelled', 'cancelled');
  } finally {
    readline.close();
  }
}
