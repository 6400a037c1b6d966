package dev.lancet.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.awscore.endpoints.AwsEndpointAttribute;
import software.amazon.awssdk.awscore.endpoints.authscheme.EndpointAuthScheme;
import software.amazon.awssdk.awscore.endpoints.authscheme.SigV4AuthScheme;
import software.amazon.awssdk.endpoints.Endpoint;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.endpoints.S3EndpointParams;
import software.amazon.awssdk.services.s3.endpoints.S3EndpointProvider;

/**
 * The fixed endpoint of a custom server gives the URL and signing the SDK's own endpoint rules
 * give (checked against them and against the literal URL), for path-style and virtual-hosted
 * access; cases it does not handle reach the rules unchanged.
 */
class FixedS3EndpointProviderTest {
  private static final S3EndpointProvider RULES = S3EndpointProvider.defaultProvider();

  private static S3EndpointParams params(String endpoint, String bucket, boolean pathStyle, String region) {
    return S3EndpointParams.builder().endpoint(endpoint).bucket(bucket).forcePathStyle(pathStyle)
        .region(Region.of(region)).useFips(false).useDualStack(false).accelerate(false)
        .useGlobalEndpoint(false).useArnRegion(true).disableMultiRegionAccessPoints(false)
        .key("tables/t/_versions/1.manifest").build();
  }

  @ParameterizedTest(name = "{0} {1} pathStyle={2} -> {4}")
  @CsvSource({
      "http://127.0.0.1:9000, lancet-data, true, us-east-1, http://127.0.0.1:9000/lancet-data",
      "http://localhost:9000, lancet-data, true, eu-west-3, http://localhost:9000/lancet-data",
      "https://minio.example.com/base, lancet-data, true, us-east-1, https://minio.example.com/base/lancet-data",
      "https://minio.example.com/base/, lancet-data, true, us-east-1, https://minio.example.com/base/lancet-data",
      "http://localhost:9000, my.dotted.bucket, true, us-east-1, http://localhost:9000/my.dotted.bucket",
      "http://localhost:9000, lancet-data, false, us-east-1, http://lancet-data.localhost:9000",
      "https://storage.example.com, lancet-data, false, ap-south-1, https://lancet-data.storage.example.com",
      "https://storage.example.com/base, lancet-data, false, us-east-1, https://lancet-data.storage.example.com/base",
  })
  void givesTheUrlAndSigningOfTheRules(String endpoint, String bucket, boolean pathStyle, String region, String url) {
    S3EndpointParams params = params(endpoint, bucket, pathStyle, region);
    Endpoint fixed = new FixedS3EndpointProvider(URI.create(endpoint), RULES).resolveEndpoint(params).join();
    Endpoint rules = RULES.resolveEndpoint(params).join();

    assertThat(fixed.url()).isEqualTo(URI.create(url));
    assertThat(fixed.url()).isEqualTo(rules.url());
    assertThat(signing(fixed)).isEqualTo(signing(rules)).isEqualTo(List.of("s3|" + region + "|true"));
  }

  @Test
  void whatItDoesNotHandleGoesToTheRules() {
    Endpoint marker = Endpoint.builder().url(URI.create("http://rules.invalid")).build();
    S3EndpointProvider counting = p -> java.util.concurrent.CompletableFuture.completedFuture(marker);
    FixedS3EndpointProvider fixed = new FixedS3EndpointProvider(URI.create("http://localhost:9000"), counting);
    // A bucket that cannot lead a host name, an IP-address host and FIPS are the rules' to decide.
    assertThat(fixed.resolveEndpoint(params("http://localhost:9000", "my.dotted.bucket", false, "us-east-1")).join())
        .isSameAs(marker);
    assertThat(new FixedS3EndpointProvider(URI.create("http://127.0.0.1:9000"), counting)
        .resolveEndpoint(params("http://127.0.0.1:9000", "lancet-data", false, "us-east-1")).join()).isSameAs(marker);
    assertThat(fixed.resolveEndpoint(params("http://localhost:9000", "lancet-data", true, "us-east-1").toBuilder()
        .useFips(true).build()).join()).isSameAs(marker);
    assertThat(fixed.resolveEndpoint(params("http://localhost:9000", "lancet-data", true, "us-east-1")).join())
        .isNotSameAs(marker);
  }

  private static List<String> signing(Endpoint endpoint) {
    List<EndpointAuthScheme> schemes = endpoint.attribute(AwsEndpointAttribute.AUTH_SCHEMES);
    return schemes.stream().map(s -> {
      SigV4AuthScheme v4 = (SigV4AuthScheme) s;
      return v4.signingName() + "|" + v4.signingRegion() + "|" + v4.disableDoubleEncoding();
    }).toList();
  }
}
