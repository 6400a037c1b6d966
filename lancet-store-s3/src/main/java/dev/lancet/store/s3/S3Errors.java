package dev.lancet.store.s3;

import dev.lancet.core.store.StoreAccessException;
import dev.lancet.core.store.StoreAccessException.Reason;
import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.Set;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** How S3 answers and client failures become the store's errors. */
final class S3Errors {
  private static final Set<String> CREDENTIAL_CODES = Set.of(
      "InvalidAccessKeyId", "SignatureDoesNotMatch", "InvalidToken", "ExpiredToken", "TokenRefreshRequired",
      "InvalidSecurity", "AuthorizationHeaderMalformed");
  private static final Set<String> THROTTLE_CODES = Set.of(
      "SlowDown", "Throttling", "ThrottlingException", "RequestLimitExceeded", "TooManyRequests", "ServiceUnavailable");

  private S3Errors() {}

  static String code(S3Exception e) {
    return e.awsErrorDetails() == null || e.awsErrorDetails().errorCode() == null ? "" : e.awsErrorDetails().errorCode();
  }

  /** The server says it did not process the request because of load: safe to send again. */
  static boolean isThrottle(S3Exception e) {
    return e.statusCode() == 503 || e.statusCode() == 429 || THROTTLE_CODES.contains(code(e));
  }

  /** 409 ConditionalRequestConflict: a conflicting conditional write was in flight; ours did not land. */
  static boolean isConditionalConflict(S3Exception e) {
    return e.statusCode() == 409;
  }

  /** The server does not implement the condition we sent. */
  static boolean isConditionNotImplemented(S3Exception e) {
    return e.statusCode() == 501 || "NotImplemented".equals(code(e));
  }

  /** The request never reached the server (refused, unresolvable, unroutable): safe to send again. */
  static boolean neverSent(SdkClientException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException || t instanceof UnknownHostException || t instanceof NoRouteToHostException
          || t.getClass().getName().endsWith("ConnectTimeoutException")) {
        return true;
      }
    }
    return false;
  }

  /**
   * The error that ends a request for good: bad credentials, access denied and a missing bucket
   * as a {@link StoreAccessException}; anything else as an {@link IOException} naming the
   * request, the object and the server's answer.
   */
  static RuntimeException accessError(S3Exception e, S3Location location, String endpoint) {
    String code = code(e);
    if (e.statusCode() == 404 && "NoSuchBucket".equals(code)) {
      return new StoreAccessException(Reason.MISSING_BUCKET, "S3 bucket '" + location.bucket() + "' does not exist"
          + at(endpoint) + ": create it, or check the table location " + location, e);
    }
    if (e.statusCode() == 403 && CREDENTIAL_CODES.contains(code)) {
      return new StoreAccessException(Reason.BAD_CREDENTIALS, "S3 rejected the credentials for " + location + at(endpoint)
          + " (" + code + "): check aws_access_key_id / aws_secret_access_key (or AWS_ACCESS_KEY_ID / "
          + "AWS_SECRET_ACCESS_KEY) and aws_session_token", e);
    }
    if (e.statusCode() == 403) {
      return new StoreAccessException(Reason.ACCESS_DENIED, "S3 denied access to " + location + at(endpoint)
          + " (" + (code.isEmpty() ? "403" : code) + "): the credentials are not allowed to read and write this "
          + "table, or they are wrong", e);
    }
    return null;
  }

  static IOException ioError(String request, String path, S3Exception e) {
    String code = code(e);
    return new IOException("S3 " + request + " " + path + " failed: HTTP " + e.statusCode()
        + (code.isEmpty() ? "" : " " + code) + " (" + firstLine(e.awsErrorDetails() == null ? e.getMessage()
        : e.awsErrorDetails().errorMessage()) + ")", e);
  }

  static RuntimeException credentialsMissing(SdkClientException e, S3Location location) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (message.contains("Unable to load credentials") || message.contains("credentials")) {
      return new StoreAccessException(Reason.BAD_CREDENTIALS, "No AWS credentials for " + location + ": set "
          + "aws_access_key_id and aws_secret_access_key (storage options, or AWS_ACCESS_KEY_ID and "
          + "AWS_SECRET_ACCESS_KEY), or configure the AWS SDK's default credential chain", e);
    }
    return null;
  }

  static IOException clientError(String request, String path, SdkClientException e) {
    return new IOException("S3 " + request + " " + path + " failed: " + firstLine(e.getMessage()), e);
  }

  private static String at(String endpoint) {
    return endpoint.isEmpty() ? "" : " at " + endpoint;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "no message";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
