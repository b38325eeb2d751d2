__global__ void __launch_bounds__(128, 4) preds(int *a, int n, float t) {
  int i = threadIdx.x;
  if (i >= n) return;
  int v = a[i];
  bool p = v > 0 && (v & 1) || t < 0.5f;
  a[i] = p ? v * 2 : -v;
  if (!(v < n) && t != t) a[i + 1] = 3;
}
