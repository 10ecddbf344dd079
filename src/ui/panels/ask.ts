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

export interface Opening<N extends QueryName> {
  /** What the panel says when the input has no requests (then nothing is asked). */
  empty: string;
  /** What it says while the worker answers, if anything. */
  loading?: string;
  query: N;
}

/**
 * The opening of a panel over the requests: the `empty` line when there are none, else the `loading` line (when
 * given) while the worker answers. The answer, or null when there is nothing more to draw.
 */
export async function askWithRequests<N extends QueryName>(container: HTMLElement, ctx: PanelContext, opening: Opening<N>, ...params: ParamsTuple<N>): Promise<AnswerOf<N> | null> {
  if (ctx.view.requests.length === 0) {
    container.append(el('p', { className: 'empty', text: opening.empty }));
    return null;
  }
  if (opening.loading !== undefined) container.append(el('p', { className: 'muted', text: opening.loading }));
  return askOrShowError(container, ctx, opening.query, ...params);
}
