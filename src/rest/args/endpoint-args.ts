import type { ArgSchema } from './arg-schema';
import type { ArgsValidator } from './compile-args';
import { compileArgList } from './compile-args';
import type { CompiledArg } from './compiled-arg';
import { generatedRunner } from './generated-runner';
import { type ArgsRunner, loopRunner } from './run-args';

/**
 * An endpoint's arguments as the route registry keeps them: checked at registration (every
 * schema and default, so that a malformed one still fails there), with the runner built on the
 * first request that runs it. A server with many routes thus pays for generating code only for
 * the routes it is asked for.
 */
class LazyArgsValidator implements ArgsValidator {
  readonly names: readonly string[];
  readonly #compiled: readonly CompiledArg[];
  #runner: ArgsRunner | undefined;
  #generated = false;

  /** @param compiled - the checked arguments */
  constructor(compiled: readonly CompiledArg[]) {
    this.#compiled = compiled;
    this.names = compiled.map((arg) => arg.name);
  }

  get generated(): boolean {
    this.#resolve();
    return this.#generated;
  }

  run(...args: Parameters<ArgsRunner>): Record<string, unknown> {
    const runner = this.#resolve();
    // Later calls go straight to the runner.
    this.run = runner;
    return runner(...args);
  }

  #resolve(): ArgsRunner {
    if (this.#runner === undefined) {
      const generated = generatedRunner(this.#compiled);
      this.#generated = generated !== null;
      this.#runner = generated ?? loopRunner(this.#compiled);
    }
    return this.#runner;
  }
}

/** Validators of the library's own argument records, shared by every endpoint that declares one. */
const sharedValidators = new WeakMap<object, ArgsValidator>();
const sharedRecords = new WeakSet<object>();

/**
 * @internal Declares an argument record of the library's own routes (the settings routes')
 * shared: frozen with its schemas, so that every plugin's endpoint declaring this very record
 * uses one validator, compiled once.
 */
export function sharedArgs<T extends Record<string, ArgSchema>>(args: T): Readonly<T> {
  for (const schema of Object.values(args)) Object.freeze(schema);
  Object.freeze(args);
  sharedRecords.add(args);
  return args;
}

/**
 * @internal Compiles an endpoint's arguments for the route registry: checked now (see
 * `compileArgs` for what is checked), the runner generated on first use.
 *
 * @param where - names the endpoint in registration errors
 * @throws {@link Framework_Plugin_Exception} (400) for a malformed schema or an invalid default
 */
export function compileEndpointArgs(
  args: Readonly<Record<string, ArgSchema>> | undefined,
  where: string,
): ArgsValidator {
  if (args === undefined || !sharedRecords.has(args))
    return new LazyArgsValidator(compileArgList(args, where));
  let validator = sharedValidators.get(args);
  if (validator === undefined) {
    validator = new LazyArgsValidator(compileArgList(args, where));
    sharedValidators.set(args, validator);
  }
  return validator;
}
