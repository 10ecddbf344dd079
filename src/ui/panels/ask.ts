// A panel's question to the worker, with the failure shown in the panel and a superseded render ignored.
import { el } from '../dom.ts';
import type { AnswerOf, ParamsTuple, QueryName } from '../../worker/queries.ts';
import type { PanelContext } from './types.ts';

/** The answer, or null when the render was superseded or the worker failed (the error is then shown). */
export async function askOrShowError<N extends QueryName>(container: HTMLElement, ctx: PanelContext, name: N, ...params: ParamsTuple<N>): Promise<AnswerOf<N> | null> {
  try {
    const answer = await ctx.ask(name, ...params);
    return ctx.signal.aborted ? null : answer;
  } catch (error) {
    if (!ctx.signal.aborted) container.replaceChildren(el('p', { className: 'error', text: error instanceof Error ? error.message : String(error) }));
    return null;
  }
}
