// Kept in step with package.json's version (tests/analysis/record.test.ts checks it): the core cannot read files.
export const CTXRAY_VERSION = '0.1.0';
export const GENERATED_BY = `ctxray ${CTXRAY_VERSION}`;
