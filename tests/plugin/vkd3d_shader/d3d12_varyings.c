/* A D3D12 draw whose vertex-to-pixel interface packs several elements into registers under
 * different component masks (d3d12_shaders.cpp, varyings_vs / varyings_ps): TEXCOORD0 in
 * o1.xy = (0.125, 0.25), TEXCOORD1 in o1.zw = (0.5, 1), FACTOR alone in o2.z = 2, and a flat
 * uint ID in o3.x = 3; the pixel shader also reads SV_Position.xy. One full-viewport triangle
 * into a 64x64 float target; every pixel (x, y) is
 * (0.125 + 1, 0.25 + 0.5, 2 * 3, (y + 0.5) * 64 + x + 0.5). Run with KILN_VKD3D_SHADER_FORWARD
 * naming one of the two stages, it is a pipeline whose stages come from kiln and from the
 * system's vkd3d-shader, which must line up element by element. Prints the pixels (16, 32),
 * (48, 16) and (63, 63) as r g b a.
 * usage: d3d12-varyings VS.dxbc PS.dxbc */
#include "d3d12_support.h"

int main(int argc, char** argv) {
  static const float clear[4] = {-1, -1, -1, -1};
  static const UINT probes[3][2] = {{16, 32}, {48, 16}, {63, 63}};
  return d3d12_draw_program("d3d12-varyings", argc, argv, clear, 3, 1, probes,
                            sizeof probes / sizeof probes[0]);
}
