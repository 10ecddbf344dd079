// Which inputs could not be read at all: the CLI's exit 1 and the library's rejection, with each file's errors.
import type { ReadError } from '../model.ts';
import type { Analysis, AnalysisFile } from './types.ts';

/** "file:line: message" (a JSON array's record names itself in the message, so its line is left out). */
export function locatedError(fileName: string, error: Pick<ReadError, 'line' | 'recordNumber' | 'message'>): string {
  return `${fileName}${error.line > 0 && error.recordNumber === undefined ? `:${error.line}` : ''}: ${error.message}`;
}

/** An input that yielded no request at all is unreadable: that is exit 1, with its errors shown. */
export function unreadableFiles(
  analysis: Pick<Analysis, 'errors' | 'duplicateCalls'> & { files: readonly Pick<AnalysisFile, 'name' | 'requests' | 'envelope' | 'format'>[] },
  include: (file: number) => boolean = () => true,
): string[] {
  const messages: string[] = [];
  analysis.files.forEach((file, index) => {
    if (file.requests > 0 || !include(index) || onlyCopies(analysis, index)) return;
    const errors = analysis.errors.filter((error) => error.file === index);
    if (holdsNoRequestsByDesign(file) && errors.length === 0) return;
    if (errors.length === 0) messages.push(`${file.name}: no request bodies found`);
    for (const error of errors) messages.push(locatedError(file.name, error));
  });
  return messages;
}

/** Every call of the file was a copy of one an earlier file recorded (a resumed or copied session): read, not empty. */
export function onlyCopies(analysis: Pick<Analysis, 'duplicateCalls'>, file: number): boolean {
  return (analysis.duplicateCalls ?? []).some((dropped) => dropped.file === file);
}

/**
 * Files whose content goes into other files' requests, so none of their own is no fault: a batch output file
 * (usage for another file's requests), and a Cline-format task part (its requests are counted on the task's other
 * half; task_metadata.json holds none).
 */
export function holdsNoRequestsByDesign(file: Pick<AnalysisFile, 'envelope' | 'format'>): boolean {
  return file.envelope === 'anthropic-batch-results' || file.envelope === 'openai-batch-output' || file.format === 'cline-task' || file.format === 'opencode-storage';
}
