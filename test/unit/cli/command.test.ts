// The command framework of `svc`, in process: parsing, generated help, exit codes, one cleanup path.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineCommand, runCommand } from '../../../src/cli/command.js';
import { EXIT, UsageError } from '../../../src/cli/common.js';
import { exitCodeFor } from '../../../src/cli/output.js';

const hello = defineCommand({
  name: 'hello',
  summary: 'greets people',
  usage: 'svc hello <name...> [options]',
  positionals: true,
  options: {
    times: { type: 'string', arg: '<n>', help: 'how often\nat most 3' },
    tag: { type: 'string', multiple: true, arg: '<t>', help: 'a tag; repeat for several' },
    loud: { type: 'boolean', short: 'l', help: 'shout' },
  },
  json: 'print the greeting as JSON',
  dataDir: true,
  notes: 'Exit: 0 greeted, 2 bad usage.',
  examples: ['svc hello world', 'svc hello world --loud --json'],
  async run({ values, positionals, json, dataDirFlag }) {
    if (positionals.length === 0) throw new UsageError('hello: give a name');
    const greeting = {
      text: `hello ${positionals.join(' ')}`,
      times: values.times,
      tags: values.tag,
      loud: values.loud,
      dataDirFlag,
    };
    process.stdout.write(json ? JSON.stringify(greeting) : greeting.text);
    return EXIT.ok;
  },
});

function captureStdout(): { text(): string } {
  let out = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  return { text: () => out };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('defineCommand', () => {
  it('generates --help from the options, the framework flags and the examples', async () => {
    const out = captureStdout();
    expect(await hello.run(['--help'])).toBe(EXIT.ok);
    expect(out.text()).toBe(hello.help());
    const help = out.text();
    expect(help).toMatch(
      /^svc hello: greets people\n\nUsage: svc hello <name\.\.\.> \[options\]\n/,
    );
    expect(help).toContain('  --times <n>         how often\n                      at most 3\n');
    expect(help).toContain('  -l, --loud          shout\n');
    expect(help).toContain('  --json              print the greeting as JSON\n');
    expect(help).toMatch(/ {2}--data-dir <dir> {4}data dir of the embedded service/);
    expect(help).toContain('  -h, --help          this help\n');
    expect(help).toContain('\n\nExit: 0 greeted, 2 bad usage.\n\nExamples:\n  svc hello world\n');
  });

  it('parses flags into typed values, --json and --data-dir included', async () => {
    const out = captureStdout();
    const argv = ['ada', '--times', '2', '--tag', 'a', '--tag', 'b', '-l', '--json'];
    expect(await hello.run([...argv, '--data-dir', 'd'])).toBe(EXIT.ok);
    expect(JSON.parse(out.text())).toEqual({
      text: 'hello ada',
      times: '2',
      tags: ['a', 'b'],
      loud: true,
      dataDirFlag: 'd',
    });
  });

  it('turns every bad command line into a UsageError naming the command: exit code 2', async () => {
    for (const argv of [['ada', '--nope'], ['ada', '--times'], [], ['ada', '--loud=yes']]) {
      const error = await hello.run(argv).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, argv.join(' ')).toBeInstanceOf(UsageError);
      expect((error as Error).message).toMatch(/^hello: /);
      expect(exitCodeFor(error)).toBe(EXIT.usage);
    }
  });

  it('rejects positionals for a command that takes none', async () => {
    const none = defineCommand({
      name: 'none',
      summary: 's',
      usage: 'svc none',
      options: {},
      examples: ['svc none'],
      run: async () => EXIT.ok,
    });
    await expect(none.run(['extra'])).rejects.toThrow(/^none: Unexpected argument 'extra'/);
    await expect(none.run([])).resolves.toBe(EXIT.ok);
  });

  it('runs every cleanup, last registered first, also when the work throws', async () => {
    const order: string[] = [];
    const failing = defineCommand({
      name: 'failing',
      summary: 's',
      usage: 'svc failing',
      options: {},
      examples: ['svc failing'],
      async run(ctx) {
        ctx.defer(() => void order.push('first'));
        ctx.defer(async () => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push('second');
        });
        throw new Error('work failed');
      },
    });
    await expect(failing.run([])).rejects.toThrow('work failed');
    expect(order).toEqual(['second', 'first']);
  });

  it('surfaces a failed cleanup after running the others', async () => {
    const order: string[] = [];
    const command = defineCommand({
      name: 'c',
      summary: 's',
      usage: 'svc c',
      options: {},
      examples: ['svc c'],
      async run(ctx) {
        ctx.defer(() => void order.push('ran'));
        ctx.defer(() => {
          throw new Error('close failed');
        });
        return EXIT.ok;
      },
    });
    await expect(command.run([])).rejects.toThrow('close failed');
    expect(order).toEqual(['ran']);
  });

  it('installs the signal handlers on first use and removes them when the command ends', async () => {
    const before = process.listenerCount('SIGINT');
    let during = 0;
    const command = defineCommand({
      name: 'sig',
      summary: 's',
      usage: 'svc sig',
      options: {},
      examples: ['svc sig'],
      async run(ctx) {
        expect(process.listenerCount('SIGINT')).toBe(before);
        expect(ctx.signal.aborted).toBe(false);
        during = process.listenerCount('SIGINT');
        return EXIT.ok;
      },
    });
    await command.run([]);
    expect(during).toBe(before + 1);
    expect(process.listenerCount('SIGINT')).toBe(before);
  });
});

describe('runCommand', () => {
  it('sets the exit code from the result, or from the error it prints', async () => {
    const saved = process.exitCode;
    captureStdout();
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await runCommand(hello, ['ada']);
      expect(process.exitCode).toBe(EXIT.ok);
      await runCommand(hello, ['--nope']);
      expect(process.exitCode).toBe(EXIT.usage);
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(/^svc: hello: Unknown option '--nope'/);
    } finally {
      process.exitCode = saved;
    }
  });
});
