package dev.lancet.store.s3;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import software.amazon.awssdk.awscore.endpoints.AwsEndpointAttribute;
import software.amazon.awssdk.awscore.endpoints.authscheme.SigV4AuthScheme;
import software.amazon.awssdk.endpoints.Endpoint;
import software.amazon.awssdk.services.s3.endpoints.S3EndpointParams;
import software.amazon.awssdk.services.s3.endpoints.S3EndpointProvider;
import software.amazon.awssdk.utils.http.SdkHttpUtils;

/**
 * The endpoint of a request to a custom S3-compatible server ({@code aws_endpoint}): the
 * override URL with the bucket in the path (path-style) or in the host name (virtual-hosted),
 * signed with SigV4 for service {@code s3} in the configured region, without double encoding,
 * which is what the SDK's endpoint rules give for such an endpoint. Anything the rules treat
 * specially (ARNs, S3 Express, a bucket that is not a plain DNS label in virtual-hosted style,
 * FIPS, dual-stack, acceleration) goes to the SDK's own rules.
 */
final class FixedS3EndpointProvider implements S3EndpointProvider {
  /** A bucket name that is one DNS label, so it can lead the host name. */
  private static final Pattern HOST_LABEL = Pattern.compile("[a-z0-9][a-z0-9-]{1,61}[a-z0-9]");
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  private final URI endpoint;
  private final S3EndpointProvider rules;

  FixedS3EndpointProvider(URI endpoint, S3EndpointProvider rules) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    this.rules = Objects.requireNonNull(rules, "rules");
  }

  @Override
  public CompletableFuture<Endpoint> resolveEndpoint(S3EndpointParams params) {
    String bucket = params.bucket();
    if (bucket == null || params.region() == null || isTrue(params.useFips()) || isTrue(params.useDualStack())
        || isTrue(params.accelerate()) || isTrue(params.useObjectLambdaEndpoint())
        || isTrue(params.useS3ExpressControlEndpoint()) || bucket.startsWith("arn:") || bucket.endsWith("--x-s3")
        || bucket.endsWith("--op-s3") || endpoint.getQuery() != null) {
      return rules.resolveEndpoint(params);
    }
    String path = endpoint.getRawPath() == null ? "" : endpoint.getRawPath();
    URI url;
    if (isTrue(params.forcePathStyle())) {
      String base = path.endsWith("/") ? path : path + "/";
      url = URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority() + base
          + SdkHttpUtils.urlEncode(bucket));
    } else if (HOST_LABEL.matcher(bucket).matches() && !isIpAddress(endpoint.getHost())) {
      url = URI.create(endpoint.getScheme() + "://" + bucket + "." + endpoint.getRawAuthority() + path);
    } else {
      return rules.resolveEndpoint(params);
    }
    SigV4AuthScheme sigV4 = SigV4AuthScheme.builder().signingName("s3").signingRegion(params.region().id())
        .disableDoubleEncoding(true).build();
    return CompletableFuture.completedFuture(Endpoint.builder().url(url)
        .putAttribute(AwsEndpointAttribute.AUTH_SCHEMES, List.of(sigV4)).build());
  }

  private static boolean isIpAddress(String host) {
    return host == null || host.startsWith("[") || host.contains(":") || IPV4.matcher(host).matches();
  }

  private static boolean isTrue(Boolean b) {
    return Boolean.TRUE.equals(b);
  }
}
