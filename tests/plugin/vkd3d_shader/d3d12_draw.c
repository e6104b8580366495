/* A D3D12 draw with a vertex and a pixel shader into a render target: the conformance suite's
 * instance-id shaders (vs_4_0 building four triangles from SV_VertexID and SV_InstanceID out of
 * an immediate constant buffer, one per quadrant, coloured by instance; ps_4_0 passing the
 * colour on), 3 vertices x 4 instances into a 64x64 float target. Prints the centre pixel of
 * each quadrant (top-left, top-right, bottom-right, bottom-left) as r g b a.
 * usage: d3d12-draw VS.dxbc PS.dxbc */
#include "d3d12_support.h"

int main(int argc, char** argv) {
  static const float clear[4] = {0, 0, 0, 0};
  static const UINT probes[4][2] = {{16, 16}, {48, 16}, {48, 48}, {16, 48}};
  return d3d12_draw_program("d3d12-draw", argc, argv, clear, 3, 4, probes,
                            sizeof probes / sizeof probes[0]);
}
