# The layer graph check (docs/architecture.md): fails the configure when a layer reaches into
# another layer's privates. Each layer's src/<layer> folder is its own; what one layer lends
# another (the JSON library's API, the schema's private API for the store) is a header in
# include/DataClient/private listed in the SOURCES of the layer that owns it, and only layers
# that link the owner may include it. testexport_p.h belongs to every layer.
#
# Checked for every layer library, and for the QML modules' backing libraries that are not layers
# (DataClientTestingQml, DataClientInspectorQml); a folder that is another checked library's own
# (src/testing/qml inside src/testing) is checked as that library's, not its parent's:
#   1. no include directory inside another layer's src/ folder;
#   2. no source with #include "../...": a relative way into another folder;
#   3. every #include <DataClient/private/X> names a header owned by the layer itself or by a
#      layer it links.

function(dataclient_check_layer_graph)
  get_property(layers GLOBAL PROPERTY DATACLIENT_LAYER_TARGETS)
  get_property(internal GLOBAL PROPERTY DATACLIENT_INTERNAL_TARGETS)
  list(APPEND layers ${internal})
  list(REMOVE_ITEM layers DataClient) # the umbrella: an interface library, no sources
  foreach(module DataClientTestingQml DataClientInspectorQml)
    if(TARGET ${module})
      list(APPEND layers ${module})
    endif()
  endforeach()
  set(layer_dirs)
  foreach(target IN LISTS layers)
    get_target_property(dir ${target} SOURCE_DIR)
    list(APPEND layer_dirs ${dir})
  endforeach()
  set(private_dir ${PROJECT_SOURCE_DIR}/include/DataClient/private)

  # Who owns each private header.
  foreach(target IN LISTS layers)
    get_target_property(sources ${target} SOURCES)
    foreach(source IN LISTS sources)
      if(source MATCHES "^${private_dir}/(.+)$")
        set(owner_${CMAKE_MATCH_1} ${target})
      endif()
    endforeach()
  endforeach()

  foreach(target IN LISTS layers)
    get_target_property(own_dir ${target} SOURCE_DIR)
    get_target_property(dirs ${target} INCLUDE_DIRECTORIES)
    foreach(dir IN LISTS dirs)
      if(dir MATCHES "^${PROJECT_SOURCE_DIR}/src/" AND NOT dir STREQUAL own_dir)
        message(FATAL_ERROR "Layer graph: ${target} has the include directory ${dir}, another "
          "layer's private folder. Move what it needs into include/DataClient/private (listed in "
          "the owner's SOURCES) and link the owner; see docs/architecture.md, \"Private API\".")
      endif()
    endforeach()

    get_target_property(links ${target} LINK_LIBRARIES)
    set(allowed ${target})
    foreach(link IN LISTS links)
      if(TARGET ${link})
        get_target_property(aliased ${link} ALIASED_TARGET)
        if(aliased)
          set(link ${aliased})
        endif()
        list(APPEND allowed ${link})
      endif()
    endforeach()

    file(GLOB_RECURSE files ${own_dir}/*.cpp ${own_dir}/*.h) # subfolders too (src/inspector/widgets)
    foreach(dir IN LISTS layer_dirs)
      if(NOT dir STREQUAL own_dir AND dir MATCHES "^${own_dir}/")
        list(FILTER files EXCLUDE REGEX "^${dir}/")
      endif()
    endforeach()
    foreach(file IN LISTS files)
      file(STRINGS ${file} includes REGEX "^#include [<\"]")
      foreach(line IN LISTS includes)
        if(line MATCHES "^#include \"\\.\\./")
          message(FATAL_ERROR "Layer graph: ${file}: '${line}' reaches into another folder; "
            "include layers through <DataClient/...> only.")
        elseif(line MATCHES "^#include <DataClient/private/([^>]+)>")
          set(header ${CMAKE_MATCH_1})
          if(header STREQUAL "testexport_p.h")
            continue()
          endif()
          if(NOT DEFINED owner_${header})
            message(FATAL_ERROR "Layer graph: ${file} includes <DataClient/private/${header}>, "
              "which no layer lists in its SOURCES: add it to the owning layer's CMakeLists.txt.")
          endif()
          if(NOT owner_${header} IN_LIST allowed)
            message(FATAL_ERROR "Layer graph: ${file} (in ${target}) includes the private header "
              "<DataClient/private/${header}> of ${owner_${header}}, which ${target} does not "
              "link. Layers depend only downward (docs/architecture.md): ask the owner for a "
              "public API or link it if it is below.")
          endif()
        endif()
      endforeach()
    endforeach()
  endforeach()
endfunction()

dataclient_check_layer_graph()
