/** A compiled Lingui message: text, or text and placeholder tokens. */
export type CompiledMessage = string | ReadonlyArray<string | ReadonlyArray<unknown>>;
export function finishPseudo(message: CompiledMessage): Array<string | ReadonlyArray<unknown>>;
