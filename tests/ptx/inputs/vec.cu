__global__ void vec(float4 *a, const float2 *b, int4 *c, double2 *d) {
  int i = threadIdx.x;
  float4 v = a[i]; float2 w = b[i]; int4 q = c[i]; double2 e = d[i];
  v.x += w.x; v.y -= w.y; q.z ^= q.w; e.x *= e.y;
  a[i] = v; c[i] = q; d[i] = e;
}
