import { z } from 'zod';

/** One entry of a 422 body: `loc` names the exact offending field (spec 2.10). */
export const ValidationErrorDetailSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.int()])),
  msg: z.string(),
  type: z.string(),
});

/** 422 body (spec 2.10). */
export const ValidationErrorBodySchema = z.looseObject({
  detail: z.array(ValidationErrorDetailSchema),
});

/** Body of every non-422 error (ARCHITECTURE "errors other than 422"). */
export const ErrorBodySchema = z.looseObject({
  error: z.looseObject({ message: z.string(), type: z.string(), code: z.string().nullish() }),
});

/** `error.type` for each status the service returns. */
export const ERROR_TYPES = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  409: 'conflict_error',
  413: 'request_too_large',
  422: 'validation_error',
  429: 'rate_limit_error',
  500: 'api_error',
  503: 'overloaded_error',
} as const;

/** A status with a defined error type. */
export type ErrorStatus = keyof typeof ERROR_TYPES;
/** One 422 entry. */
export type ValidationErrorDetail = z.infer<typeof ValidationErrorDetailSchema>;
/** 422 body. */
export type ValidationErrorBody = z.infer<typeof ValidationErrorBodySchema>;
/** Non-422 error body. */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
